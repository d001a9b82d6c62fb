"""The bundled deck ships inside the wheel: install it for real and use it elsewhere."""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from .conftest import REPO

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(REPO)],
        check=True,
        capture_output=True,
        text=True,
    )
    (built,) = out.glob("quizzer-*.whl")
    return built


def test_wheel_holds_the_package_and_the_deck(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "quizzer/content/ml/attention.yaml" in names
    assert "quizzer/card.schema.json" in names
    assert sum(1 for n in names if n.startswith("quizzer/content/") and n.endswith(".yaml")) >= 40
    assert "quizzer/cli/__init__.py" in names
    # Type checkers read quizzer's annotations only with the PEP 561 marker; the licence
    # travels with every copy, as MIT requires.
    assert "quizzer/py.typed" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), sorted(names)[-8:]
    assert not any(name.startswith(("tests/", "content/")) for name in names)


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel installed (not editable) into a fresh virtual environment: its bin folder."""
    env_dir = tmp_path_factory.mktemp("venv")
    # The running pip installs the wheel into a bare environment (ensurepip took
    # ~15 s), and the environment reaches the test run's own dependencies through
    # a .pth line instead of installing them again (~4 minutes: a third of CI).
    # That the wheel's dependencies install is CI's own first step (`pip install .`
    # in the README). The line adds a plain folder: the .pth files in it, among
    # them the editable install's, are not run, so `quizzer` is the wheel's.
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python)]
    install = subprocess.run(
        [*pip, "install", "--quiet", "--no-deps", str(wheel)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    where = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    target = Path(subprocess.check_output([str(python), "-c", where], text=True).strip())
    ours = dict.fromkeys(sysconfig.get_paths()[kind] for kind in ("purelib", "platlib"))
    (target / "test_run_dependencies.pth").write_text("\n".join(ours) + "\n", encoding="utf-8")
    return env_dir / "bin"


def test_installed_quizzer_lists_the_bundled_deck_from_an_unrelated_folder(installed, tmp_path):
    env_dir = installed.parent
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    listed = subprocess.run(
        [str(env_dir / "bin" / "quizzer"), "list", "--json"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        check=False,
    )
    assert listed.returncode == 0, listed.stderr
    (card,) = [c for c in json.loads(listed.stdout) if c["id"] == "attention"]
    assert "site-packages/quizzer/content/ml/attention.yaml" in card["path"]
    checked = subprocess.run(
        [str(env_dir / "bin" / "quizzer"), "validate", "--strict"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_an_author_writes_a_card_into_the_user_deck_and_shows_it(installed, tmp_path):
    """The README's first command, then `quizzer new my-card` and `quizzer show my-card`."""
    quizzer = str(installed / "quizzer")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [quizzer, *args], cwd=elsewhere, capture_output=True, text=True, check=False
        )

    made = run("new", "my-card")
    assert made.returncode == 0, made.stderr
    path = Path(made.stdout.strip())
    assert "site-packages" not in str(path) and path.is_file()
    reference = path.read_text().splitlines()[0].split("$schema=", 1)[1]
    schema = (path.parent / reference).resolve()
    assert schema.is_file() and "site-packages" not in str(schema)
    shown = run("show", "my-card", "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["id"] == "my-card"
    listed = json.loads(run("list", "--json").stdout)
    assert {"my-card", "attention"} <= {c["id"] for c in listed}
    bundled = Path(next(c["path"] for c in listed if c["id"] == "attention")).parent
    refused = run("new", "other-card", "--deck", str(bundled))
    assert refused.returncode == 2 and "installed quizzer package" in refused.stderr
    assert not (bundled / "other-card.yaml").exists()

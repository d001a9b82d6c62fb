"""quizzer.files: atomic replacement of written files and bounded reads of regular files."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quizzer.files import (
    FileProblem,
    FileTooLarge,
    NotRegularFile,
    atomic_writer,
    open_regular,
    read_bounded,
    size_in_words,
    write_atomic,
)


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_write_atomic_creates_and_replaces(tmp_path):
    target = tmp_path / "out.json"
    write_atomic(target, "first ✓")
    assert target.read_text(encoding="utf-8") == "first ✓"
    write_atomic(target, b"second")
    assert target.read_bytes() == b"second"
    assert leftovers(tmp_path) == []


def test_a_replaced_file_keeps_its_permissions(tmp_path):
    target = tmp_path / "sheet.md"
    target.write_text("old")
    target.chmod(0o640)
    write_atomic(target, "new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_writing_through_a_symlink_replaces_its_target_and_keeps_the_link(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_atomic(link, "new")
    assert link.is_symlink()
    assert real.read_text() == "new"


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_a_link_to_a_pipe_is_written_through_like_dev_stdout_into_a_pipe(tmp_path):
    # `quizzer export markdown /dev/stdout | less`: /dev/stdout links to
    # /proc/self/fd/1, whose real path ("pipe:[N]") cannot be opened.
    read_end, write_end = os.pipe()
    link = tmp_path / "stdout"
    link.symlink_to(f"/proc/self/fd/{write_end}")
    try:
        write_atomic(link, "through the pipe\n")
    finally:
        os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        assert pipe.read() == b"through the pipe\n"
    assert leftovers(tmp_path) == []


def test_an_error_inside_the_block_leaves_the_old_file(tmp_path):
    target = tmp_path / "backup.json"
    target.write_text("precious")
    with pytest.raises(RuntimeError), atomic_writer(target) as out:
        out.write(b"half of the new")
        raise RuntimeError("interrupted")
    assert target.read_text() == "precious"
    assert leftovers(tmp_path) == []


def make_socket_at(path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.mkdir(), "a folder"),
        (make_socket_at, "a socket"),
    ],
)
def test_a_special_target_is_refused_untouched(tmp_path, make, message):
    target = tmp_path / "target"
    make(target)
    with pytest.raises(NotRegularFile, match=message):
        write_atomic(target, "x")
    assert leftovers(tmp_path) == []


def test_a_device_is_written_straight_through():
    write_atomic("/dev/null", "nothing to keep")


def test_a_pipe_nobody_reads_is_an_error_not_a_hang(tmp_path):
    fifo = tmp_path / "out.md"
    os.mkfifo(fifo)
    with pytest.raises(FileProblem, match="cannot write"):
        write_atomic(fifo, "x")


def test_a_pipe_with_a_reader_gets_the_data(tmp_path):
    fifo = tmp_path / "out.md"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    for _ in range(100):  # the reader must have the FIFO open before a writer can
        try:
            write_atomic(fifo, "through the pipe")
            break
        except FileProblem:
            time.sleep(0.05)
    assert reader.communicate(timeout=10)[0] == b"through the pipe"


def test_a_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(FileProblem, match=r"cannot write .*No such file"):
        write_atomic(tmp_path / "nowhere" / "out.json", "x")


FAILING_WRITE = textwrap.dedent(
    """
    import resource, sys
    from quizzer.files import FileProblem, write_atomic
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
    try:
        write_atomic(sys.argv[1], "y" * 100_000)
    except FileProblem as error:
        print(error.message)
        sys.exit(2)
    """
)


def test_a_write_cut_short_by_a_file_size_limit_leaves_the_old_file(tmp_path):
    # RLIMIT_FSIZE makes write() fail with EFBIG (Python ignores SIGXFSZ), as a full disk would.
    target = tmp_path / "backup.json"
    target.write_text("the old backup")
    result = subprocess.run(
        [sys.executable, "-c", FAILING_WRITE, str(target)], capture_output=True, text=True
    )
    assert result.returncode == 2, result.stderr
    assert "cannot write" in result.stdout and "too large" in result.stdout.lower()
    assert target.read_text() == "the old backup"
    assert leftovers(tmp_path) == []


@settings(max_examples=30, deadline=None)
@given(data=st.binary(max_size=10_000))
def test_what_is_written_is_read_back(tmp_path_factory, data):
    target = tmp_path_factory.mktemp("w") / "f.bin"
    write_atomic(target, data)
    assert read_bounded(target, len(data)) == data


def test_read_bounded_caps_by_bytes_read_not_by_reported_size(tmp_path):
    target = tmp_path / "f"
    target.write_bytes(b"x" * 101)
    with pytest.raises(FileTooLarge, match="too large"):
        read_bounded(target, 100)
    assert read_bounded(target, 101) == b"x" * 101
    # procfs files report a size of 0 yet hold more.
    status = Path("/proc/self/status")
    if status.exists():
        assert status.stat().st_size == 0
        with pytest.raises(FileTooLarge):
            read_bounded(status, 10)


def make_socket(path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: os.mkfifo(p), "is a FIFO, not a regular file"),
        (lambda p: p.mkdir(), "is a folder"),
        (make_socket, "is a socket"),
        (lambda p: p.symlink_to(p), "cannot read .*(symbolic links|Too many levels)"),
        (lambda p: None, "no such file"),
    ],
)
def test_only_regular_files_are_read(tmp_path, make, message):
    path = tmp_path / "p.yaml"
    make(path)
    with pytest.raises(FileProblem, match=message):
        read_bounded(path, 1000)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_devices_are_refused_without_reading(device):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    with pytest.raises(FileProblem):
        open_regular(device)


@pytest.mark.parametrize(
    ("count", "words"),
    [(1 << 20, "1 MB"), (64 << 10, "64 KB"), (4 << 30, "4 GB"), (12, "12 bytes")],
)
def test_size_in_words(count, words):
    assert size_in_words(count) == words

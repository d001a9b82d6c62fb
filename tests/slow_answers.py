"""Answers that once took seconds or minutes to judge, or could: each must stay quick.

Used by tests/test_answers_limits.py and bench/judge.py. All are answers to
the attention card's ``scale`` blank (d_k positive; Q, K, V matrices).
"""

SLOW_ANSWERS = [
    # issue 13: SymPy taking roots of huge integers
    "(10^9999+1)^(1/3)",
    "sqrt(10^9999+1)",
    "(10^3000+1)^(1/3)",
    "sqrt(10^4000+1)",
    "(10^400+1)^(1/2)",
    "cbrt(10^9999+1)",
    "(10^9999+1)^(2/3)",
    "log(10^9999+1)",
    "sqrt(sqrt(sqrt(10^9999+1)))",
    "(10^9999+1)^(1/3)*0 + sqrt(d_k)",
    "(10^9999+1)^(1/3) - (10^9999+1)^(1/3) + sqrt(d_k)",
    "floor(10^9999/3)",
    "erf(10^9999) sqrt(d_k)",
    "tanh(10^9999) sqrt(d_k)",
    "sin(10^9999)",
    # relatives: SymPy splits a power of a product into powers of its factors
    "sqrt((10^4000+1)*d_k)",
    "((10^4000+1)*d_k)^(1/3)",
    "sqrt((10^9999+1) d_k)",
    "sqrt(d_k^2 (10^999+1))",
    "((10^2000+1) d_k)^10000",
    "sqrt(d_k 10^400)/10^200",
    "sigmoid((10^4000+1) d_k)^(1/2)",
    # towers, factorials, exponents
    "9**9**9**9",
    "factorial(10**10)",
    "factorial(1999)^5",
    "factorial(2000)",
    "factorial(d_k*10^6)",
    "(1+1/10^9999)^(10^9999)",
    "2^(10^4) * sqrt(d_k) / 2^(10^4)",
    "d_k^(10^4) / d_k^9999",
    "(d_k-1)^9999 - (1-d_k)^9999",
    "exp(exp(exp(9)))",
    "exp(exp(d_k))",
    "sin(exp(exp(20)))",
    # fuzzers' finds
    "10^10^dk!",
    "e^(sigmoid(exp((10^10)-abs(d_k))))²9^9",
    "max(0.000001, 1/0.000001)!",
    "1e9999 d_k",
    # matrices
    "Q^9999",
    "(Q K^T)^9999",
    "softmax(Q*10^400)",
    "exp(Q)^999",
    # size
    "(" * 10_000 + "d_k" + ")" * 10_000,
    "(" * 400 + "d_k" + ")" * 400,
    "d_k+" * 25_000,
    "+".join(["d_k"] * 399),
]

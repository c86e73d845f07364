"""Single-threaded BLAS for the command line, unless the user chose otherwise.

numpy's OpenBLAS starts a pool of threads when it is imported, and the threads spin: about
0.1 s of CPU time per run on this project's benchmark, for nothing — scoring does no large
matrix products. The command line imports this module before anything imports numpy; the
library never does (a library must not choose its caller's threads).
"""

import os

for _variable in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

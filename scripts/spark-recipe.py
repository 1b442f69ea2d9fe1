#!/usr/bin/env python3
"""The README's Spark recipe, end to end, in Spark's local mode.

`ctlpgn-filter --cut SIZE` cuts each input at true game starts into a
pieces file of its own, a NUL byte after each piece; Spark reads the pieces
files, in order, with NUL as the record delimiter
(`textinputformat.record.delimiter`), pipes each partition through the
binary (`rdd.pipe`), by absolute path and through the exit-status wrapper
`sh -c 'BIN -q; test $? -le 1'`, and collects the partitions in order. A
partition joins the pieces it holds, and a Hadoop split never spans two
files, so no two inputs are joined (one that ends inside a comment never
closed would read otherwise). The result must be the bytes of one run of
the binary over the same inputs.

Needs Java 17 or later and PySpark (`pip install pyspark`). Usage:

    scripts/spark-recipe.py                      # a generated 4 MB input, corpus
                                                 # files with rejected games, and
                                                 # the real games joined by `cat`
    scripts/spark-recipe.py --mb 200 --size 64M  # larger
    scripts/spark-recipe.py FILE...              # your files

Prints what was run, the time it took, and the driver JVM's peak resident
memory (on Linux); exits 1 if the bytes differ, or if the wrapper does not
do what it is for (pass statuses 0 and 1, fail the job on 2 and 3).

With --package, the Python package's variant (`pip install ./python`):
each partition is filtered by `ctlpgn.filter` inside `mapPartitions`, with
no binary on the workers and no exit-status wrapper (a rejected game is a
diagnostic, not a status); the binary still cuts the inputs and makes the
one run the job must give.
"""

import argparse
import glob
import os
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Added to the generated input: comments that quote games, a comment never
# closed, rejected games (so that jobs exit 1), real games (and, after
# them, the seven real games joined by `cat`).
EXTRA = [
    "corpus/comments-quoting-games.ctl-pgn",
    "corpus/errors/unclosed-comment-quoting-games.ctl-pgn",
    "corpus/errors/movetext.ctl-pgn",
    "corpus/real-2022-08-14.1.ctl-pgn",
    "corpus/real-2023-09-18.ctl-pgn",
]


def sh(*args, **kw):
    return subprocess.run(args, check=True, **kw)


def build(release_dir):
    sh("cargo", "build", "--locked", "--release", "--quiet",
       "--bin", "ctlpgn-filter", "--example", "gen_corpus", cwd=ROOT)
    return os.path.join(release_dir, "ctlpgn-filter")


def peak_rss_mb(pid):
    """The peak resident memory of process `pid`, in MB (Linux only)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="*", help="inputs (default: a generated corpus)")
    p.add_argument("--mb", type=float, default=4, help="size of the generated corpus, MB")
    p.add_argument("--size", default="256K", help="--cut SIZE (default 256K)")
    p.add_argument("--split", type=int, default=1 << 20,
                   help="Hadoop input split size in bytes: one Spark partition each")
    p.add_argument("--bin", help="the binary (default: build target/release/ctlpgn-filter)")
    p.add_argument("--master", default="local[4]")
    p.add_argument("--package", action="store_true",
                   help="filter with the ctlpgn package in mapPartitions, not rdd.pipe")
    p.add_argument("--memory", default="3g",
                   help="spark.driver.memory (in local mode, the executors' too): a piece is "
                        "one record, held whole, as text in the JVM and in Python")
    args = p.parse_args()

    release = os.path.join(ROOT, "target", "release")
    binary = os.path.abspath(args.bin) if args.bin else build(release)
    work = tempfile.mkdtemp(prefix="spark-recipe-")
    files = [os.path.abspath(f) for f in args.files]
    if not files:
        corpus = os.path.join(work, "input.ctl-pgn")
        with open(corpus, "wb") as out:
            sh(os.path.join(release, "examples", "gen_corpus"), "--mb", str(args.mb),
               "--seed", "1", stdout=out)
        # The author's seven games joined by `cat`: two of them end
        # without a newline, so a game starts on the line another ends.
        joined = os.path.join(work, "joined.ctl-pgn")
        with open(joined, "wb") as out:
            for f in sorted(glob.glob(os.path.join(ROOT, "corpus", "real-*.ctl-pgn"))):
                out.write(open(f, "rb").read())
        files = [corpus] + [os.path.join(ROOT, f) for f in EXTRA] + [joined]

    # One run: what the job must give.
    with open(os.path.join(work, "one"), "wb") as out:
        one = subprocess.run([binary, "-q", *files], stdout=out, stderr=subprocess.DEVNULL)
    if one.returncode > 1:
        sys.exit(f"one run failed: exit {one.returncode}")
    one_bytes = open(os.path.join(work, "one"), "rb").read()

    # Cut once, as the job's input: each input's pieces in a file of its own.
    os.mkdir(os.path.join(work, "pieces"))
    pieces = [os.path.join(work, "pieces", f"{i:05}") for i in range(len(files))]
    n_pieces = 0
    for f, p in zip(files, pieces):
        with open(p, "wb") as out:
            sh(binary, "--cut", args.size, f, stdout=out)
        n_pieces += open(p, "rb").read().count(b"\0") + 1

    from pyspark import SparkConf, SparkContext

    if args.package:
        # The workers' Python is the driver's, where ctlpgn is installed
        # (else Spark starts `python3` from PATH).
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

    conf = (SparkConf().setMaster(args.master).setAppName("ctlpgn-filter recipe")
            .set("spark.driver.memory", args.memory)
            .set("spark.ui.enabled", "false")
            .set("spark.ui.showConsoleProgress", "false"))
    sc = SparkContext(conf=conf)
    sc.setLogLevel("ERROR")
    started = time.monotonic()
    try:
        records = sc.newAPIHadoopFile(
            ",".join(pieces),
            "org.apache.hadoop.mapreduce.lib.input.TextInputFormat",
            "org.apache.hadoop.io.LongWritable",
            "org.apache.hadoop.io.Text",
            conf={
                "textinputformat.record.delimiter": "\u0000",
                "mapreduce.input.fileinputformat.split.maxsize": str(args.split),
            },
        ).values()
        partitions = records.getNumPartitions()
        saved = os.path.join(work, "saved")
        if args.package:
            # No binary on the workers, no wrapper: a rejected game is a
            # diagnostic, not an exit status.
            records.mapPartitions(filter_partition).saveAsTextFile(saved)
            seconds = time.monotonic() - started
            wrapper_ok = True
            jvm_mb = peak_rss_mb(sc._gateway.proc.pid)
        else:
            # rdd.pipe runs the command with an empty environment (no PATH):
            # the binary by absolute path. A job whose piece has a rejected
            # game exits 1; the wrapper lets 0 and 1 pass and fails the job on
            # anything else (2: an I/O error; 3: a binary piece).
            wrapped = f"sh -c {shlex.quote(shlex.quote(binary) + ' -q; test $? -le 1')}"
            # Written as Hadoop writes text: part-00000, part-00001... in the
            # order of the partitions, each line followed by a line end.
            records.pipe(wrapped, checkCode=True).saveAsTextFile(saved)
            seconds = time.monotonic() - started

            # The wrapper, around a stand-in that reads its piece and exits
            # with each status: the job passes on 0 and 1, fails on 2 and 3.
            sc.setLogLevel("OFF")  # the failures are meant: no stack traces
            wrapper_ok = True
            for status in range(4):
                stand_in = f"sh -c '(cat > /dev/null; exit {status}); test $? -le 1'"
                try:
                    records.pipe(stand_in, checkCode=True).count()
                    passed = True
                except Exception:
                    passed = False
                wrapper_ok &= passed == (status <= 1)
            sc.setLogLevel("ERROR")
            jvm_mb = peak_rss_mb(sc._gateway.proc.pid)
    finally:
        sc.stop()
    report(args, files, n_pieces, partitions, seconds, jvm_mb, one, one_bytes, saved,
           wrapper_ok, work)


def filter_partition(pieces):
    """The package variant's job: a partition's pieces, joined (their text
    as cut, a piece a record), filtered by `ctlpgn.filter`; its output as
    lines, which `saveAsTextFile` writes each with its line end."""
    import ctlpgn

    text, _, _ = ctlpgn.filter("".join(pieces), quiet=True)
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def report(args, files, n_pieces, partitions, seconds, jvm_mb, one, one_bytes, saved,
           wrapper_ok, work):
    """Prints what the job did; exits 1 unless it gave the bytes of one run."""
    name = "spark recipe (package)" if args.package else "spark recipe"
    parts = sorted(f for f in os.listdir(saved) if f.startswith("part-"))
    spark_bytes = b"".join(open(os.path.join(saved, f), "rb").read() for f in parts)
    same = spark_bytes == one_bytes
    size = sum(os.path.getsize(f) for f in files)
    print(f"{name}: {size / 1e6:.1f} MB in {len(files)} file(s), --cut {args.size}: "
          f"{n_pieces} pieces in {partitions} partitions ({args.master}), "
          f"{seconds:.1f} s, driver JVM peak {jvm_mb if jvm_mb is not None else '?'} MB "
          f"(spark.driver.memory {args.memory})")
    print(f"{name}: {'same bytes as one run' if same else 'OUTPUT DIFFERS from one run'} "
          f"({len(one_bytes)} bytes written)")
    if not args.package:
        print(f"{name}: one run exits {one.returncode}; the job with the wrapper passed; "
              f"the wrapper {'passes' if wrapper_ok else 'DOES NOT PASS'} statuses 0 and 1 "
              f"and fails the job on 2 and 3")
    if not (same and wrapper_ok):
        print(f"{name}: kept {work} for a look", file=sys.stderr)
        sys.exit(1)
    sh("rm", "-rf", work)


if __name__ == "__main__":
    main()

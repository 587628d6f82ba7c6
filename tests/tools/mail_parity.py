#!/usr/bin/env python3
"""kseries' reading of a series against git's, on a base made from the series.

mail_parity.py [--timeout=S] [--mboxrd] compare KSERIES WORK REFERENCE_MBOX -- KSERIES_SERIES_ARGS...
  REFERENCE_MBOX is what git am takes (format-patch/b4 output, one series).
  Builds a base with synth_base.py from git mailsplit + git mailinfo of it,
  applies REFERENCE_MBOX with `git am` and the series given to kseries (its
  --series arguments: a file, a directory, a message-id with --inbox) with
  `kseries apply`, both onto that base, and compares what they committed:
  patch count, then per commit the author name and email, the author date
  and zone, the message, the numstat and the tree.
  Prints one JSON line: {"verdict": same|different|refused|crash|hang|
  no-reference|no-base, "detail": ..., "patches": N}.

verdicts:
  same          every commit matches
  different     both applied, something differs (detail says what)
  refused       git am took it, kseries exited 1 or 2
  crash         kseries died of a signal or an internal error (exit 3+)
  hang          kseries did not finish in --timeout seconds
  both-refuse   git am refused it on the synthetic base, and so did kseries
  kseries-only  git am refused it, kseries applied it
  no-base       no consistent base could be made from the patches
mail_parity.py extract THREAD_MBOXRD IDS OUT_MBOXRD
  Writes the messages of THREAD_MBOXRD (gzipped if it ends in .gz) whose Message-ID is listed in IDS
  (one a line), in the order IDS gives, to OUT_MBOXRD.

mail_parity.py split DATA_DIR OUT_DIR
  Every message of DATA_DIR/*/thread.mbox.gz (a gzipped mboxrd) as a file of its own
  in OUT_DIR (00001, 00002, ...), unescaped: what a list delivers.

--mboxrd: REFERENCE_MBOX is an mboxrd (lore's format): git mailsplit and
  git am are told so.
"""
import gzip
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FORMAT = "%an%x00%ae%x00%at %ad%x00%T%x00%B%x01"
ENV = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null",
           GIT_AUTHOR_NAME="base", GIT_AUTHOR_EMAIL="base@invalid",
           GIT_COMMITTER_NAME="parity", GIT_COMMITTER_EMAIL="parity@invalid",
           GIT_AUTHOR_DATE="2000-01-01T00:00:00Z", GIT_COMMITTER_DATE="2000-01-01T00:00:00Z",
           LC_ALL="C.UTF-8", TZ="UTC")


def git(*args, cwd=None, check=True, input=None):
    return subprocess.run(["git", *args], cwd=cwd, env=ENV, check=check, input=input,
                          capture_output=True)


def commits(git_dir, base, tip):
    out = git("--git-dir", git_dir, "log", "--reverse", "--date=raw", "--format=" + FORMAT,
              f"{base}..{tip}").stdout
    result = []
    for record in out.split(b"\x01")[:-1]:
        name, email, date, tree, message = record.lstrip(b"\n").split(b"\x00")
        result.append({"author": name.decode("utf-8", "replace"),
                       "email": email.decode("utf-8", "replace"),
                       "date": date.decode(), "tree": tree.decode(),
                       "message": message.decode("utf-8", "replace")})
    return result


def numstats(git_dir, base, tip):
    revs = git("--git-dir", git_dir, "rev-list", "--reverse", f"{base}..{tip}").stdout.split()
    return [git("--git-dir", git_dir, "diff", "--numstat", rev.decode() + "^", rev.decode())
            .stdout.decode("utf-8", "replace") for rev in revs]


MBOXRD = []
NOTES = []  # what the base needed (hunks that fit only at an offset)


def make_base(work, mbox):
    """A base repository for MBOX, or (None, reason)."""
    split = os.path.join(work, "split")
    os.makedirs(split)
    git("mailsplit", *MBOXRD, "-o" + split, mbox)
    patches = []
    for name in sorted(os.listdir(split)):
        msg, patch = os.path.join(split, name + ".msg"), os.path.join(split, name + ".patch")
        with open(os.path.join(split, name), "rb") as f:
            git("mailinfo", msg, patch, input=f.read(), check=False)
        if os.path.exists(patch) and os.path.getsize(patch) > 0:
            patches.append(patch)
    base = os.path.join(work, "base")
    made = subprocess.run([sys.executable, os.path.join(HERE, "synth_base.py"), base, *patches],
                          capture_output=True)
    if made.returncode != 0:
        return None, made.stderr.decode("utf-8", "replace").strip()
    if made.stdout.strip():
        NOTES.append(made.stdout.decode("utf-8", "replace").strip())
    git("init", "-q", "-b", "base", base)
    with open(base + ".modes", "rb") as f:
        for line in f:
            mode, path = line.rstrip(b"\n").split(b" ", 1)
            os.chmod(os.path.join(base, os.fsdecode(path)), 0o755)
    git("add", "-A", cwd=base)
    git("commit", "-q", "--allow-empty", "-m", "synthetic base", cwd=base)
    return base, ""


def git_am(work, base, mbox):
    am = os.path.join(work, "am")
    git("clone", "-q", base, am)
    done = git("am", "-q", *(["--patch-format=mboxrd"] if MBOXRD else []), mbox, cwd=am,
               check=False)
    if done.returncode != 0:
        return None, done.stderr.decode("utf-8", "replace").strip()[:400]
    return os.path.join(am, ".git"), ""


def kseries_apply(kseries, work, base, series_args, timeout):
    workdir = os.path.join(work, "kseries")
    argv = [kseries, "apply", "--workdir", workdir, "--tree", base, "--base", "HEAD",
            "--branch", "parity", *series_args]
    try:
        done = subprocess.run(argv, capture_output=True, timeout=timeout, env=ENV)
    except subprocess.TimeoutExpired:
        return "hang", None, f"no end after {timeout} s"
    text = (done.stdout + done.stderr).decode("utf-8", "replace")
    if done.returncode < 0 or done.returncode > 2 or "internal error" in text:
        return "crash", None, f"exit {done.returncode}: {text[-600:]}"
    if done.returncode != 0:
        return "refused", None, text[-800:]
    return "ok", os.path.join(workdir, "repo.git"), ""


def compare(ref, ours):
    if len(ref) != len(ours):
        return [f"patch count: git am {len(ref)}, kseries {len(ours)}"]
    diffs = []
    for i, (a, b) in enumerate(zip(ref, ours), 1):
        for field in ("author", "email", "date", "message", "numstat", "tree"):
            if a[field] != b[field]:
                diffs.append(f"patch {i}: {field}: git am {a[field][:300]!r} kseries "
                             f"{b[field][:300]!r}")
    return diffs


def mboxrd_entries(path):
    with (gzip.open if path.endswith(".gz") else open)(path, "rb") as f:
        return [e for e in re.split(rb"(?m)^(?=From mboxrd@z )", f.read()) if e]


def split(data, out):
    count = 0
    for name in sorted(os.listdir(data)):
        thread = os.path.join(data, name, "thread.mbox.gz")
        if not os.path.isfile(thread):
            continue
        for entry in mboxrd_entries(thread):
            body = entry.split(b"\n", 1)[1]
            if body.endswith(b"\n\n"):
                body = body[:-1]  # the blank line the mboxrd writer added
            body = re.sub(rb"(?m)^>(>*From )", rb"\1", body)
            count += 1
            with open(os.path.join(out, "%05d" % count), "wb") as f:
                f.write(body)
    return 0


def extract(thread, ids_file, out):
    entries = mboxrd_entries(thread)
    by_id = {}
    for entry in entries:
        header = entry.split(b"\n\n", 1)[0]
        found = re.search(rb"(?im)^Message-ID:[ \t]*\n?[ \t]*<([^>]+)>", header)
        if found:
            by_id[found.group(1).decode()] = entry
    with open(ids_file) as f, open(out, "wb") as o:
        for mid in f.read().split():
            o.write(by_id[mid])
    return 0


def main(argv):
    if len(argv) == 5 and argv[1] == "extract":
        return extract(*argv[2:])
    if len(argv) == 4 and argv[1] == "split":
        return split(*argv[2:])
    timeout = 120
    while len(argv) >= 2 and argv[1].startswith("--"):
        option = argv.pop(1)
        if option.startswith("--timeout="):
            timeout = int(option.split("=", 1)[1])
        elif option == "--mboxrd":
            MBOXRD.append("--mboxrd")
        else:
            print(__doc__, file=sys.stderr)
            return 2
    if len(argv) < 6 or argv[1] != "compare" or argv[5] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    kseries, work, mbox, series_args = argv[2], os.path.abspath(argv[3]), os.path.abspath(argv[4]), argv[6:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    result = {"verdict": "same", "detail": "", "patches": 0}
    base, why = make_base(work, mbox)
    if base is None:
        result.update(verdict="no-base", detail=why)
    else:
        am, why = git_am(work, base, mbox)
        status, repo, why_ours = kseries_apply(kseries, work, base, series_args, timeout)
        if am is None:
            verdict = {"refused": "both-refuse", "ok": "kseries-only"}.get(status, status)
            result.update(verdict=verdict, detail=f"git am: {why} | kseries: {why_ours}"[:2000])
        else:
            why = why_ours
            if status != "ok":
                result.update(verdict=status, detail=why)
            else:
                base_id = git("-C", base, "rev-parse", "HEAD").stdout.decode().strip()
                ref = commits(am, base_id, "HEAD")
                ours = commits(repo, base_id, "refs/heads/parity")
                for side, git_dir, tip in ((ref, am, "HEAD"), (ours, repo, "refs/heads/parity")):
                    for commit, stat in zip(side, numstats(git_dir, base_id, tip)):
                        commit["numstat"] = stat
                result["patches"] = len(ref)
                diffs = compare(ref, ours)
                if diffs:
                    result.update(verdict="different", detail="; ".join(diffs)[:2000])
    if NOTES:
        result["base"] = "; ".join(NOTES)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

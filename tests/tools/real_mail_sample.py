#!/usr/bin/env python3
"""Builds tests/data/real-mail from a public-inbox v2 epoch (a git repository,
one commit per message, the message in the file `m`).

real_mail_sample.py EPOCH_GIT ROOTS OUT_DIR
  ROOTS: one line per series, "NAME MESSAGE-ID" (the cover letter or the
  first patch). For each, OUT_DIR/NAME/thread.mbox.gz gets every message of its
  thread (the root's oldest ancestor in the epoch and everything that
  replies to it, by References/In-Reply-To), byte for byte, the thread's
  first message first, then in the epoch's order, as a gzipped mboxrd;
  OUT_DIR/SOURCES lists every message's epoch commit.

The messages are the archive's own; nothing is edited.
"""
import email
import gzip
import email.policy
import os
import re
import subprocess
import sys


def epoch_messages(repo):
    """(commit, raw bytes) of every message, oldest first."""
    commits = subprocess.run(["git", "-C", repo, "rev-list", "--reverse", "HEAD"], check=True,
                             capture_output=True, text=True).stdout.split()
    cat = subprocess.Popen(["git", "-C", repo, "cat-file", "--batch"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE)
    for commit in commits:
        cat.stdin.write(f"{commit}:m\n".encode())
        cat.stdin.flush()
        size = int(cat.stdout.readline().split()[2])
        data = cat.stdout.read(size)
        cat.stdout.read(1)
        yield commit, data


def ids(value):
    return re.findall(r"<([^<>\s]+)>", value or "")


def mboxrd(raw):
    """One message as an mboxrd entry: a From_ line, '>From ' quoted once more."""
    out = [b"From mboxrd@z Thu Jan  1 00:00:00 1970\n"]
    for line in raw.splitlines(keepends=True):
        if re.match(rb"^>*From ", line):
            line = b">" + line
        out.append(line)
    if not out[-1].endswith(b"\n"):
        out.append(b"\n")
    out.append(b"\n")
    return b"".join(out)


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    repo, roots_file, out = argv[1], argv[2], os.path.abspath(argv[3])
    wanted = [line.split() for line in open(roots_file) if line.strip() and line[0] != "#"]
    messages = []  # (commit, raw, message-id, parent ids)
    for commit, raw in epoch_messages(repo):
        head = email.message_from_bytes(raw.split(b"\n\n", 1)[0] + b"\n\n",
                                        policy=email.policy.compat32)
        own = ids(head.get("Message-ID"))
        messages.append((commit, raw, own[0] if own else "",
                         ids(head.get("References")) + ids(head.get("In-Reply-To"))))
    sources = []
    parents_of = {m[2]: m[3] for m in messages}
    for name, root in wanted:
        top = root
        for _ in range(1000):  # up to the thread's first message in the epoch
            up = [p for p in reversed(parents_of.get(top, [])) if p in parents_of]
            if not up:
                break
            top = up[0]
        thread = {top}
        grew = True
        while grew:  # every message whose parents reach the root
            grew = False
            for _, _, own, parents in messages:
                if own and own not in thread and any(p in thread for p in parents):
                    thread.add(own)
                    grew = True
        chosen = [m for m in messages if m[2] in thread]
        chosen.sort(key=lambda m: m[2] != top)  # the first message first, then the epoch's order
        os.makedirs(os.path.join(out, name), exist_ok=True)
        thread_mbox = os.path.join(out, name, "thread.mbox.gz")
        with gzip.GzipFile(thread_mbox, "wb", mtime=0) as f:
            for commit, raw, own, _ in chosen:
                f.write(mboxrd(raw))
                sources.append(f"{name} {commit} <{own}>")
    with open(os.path.join(out, "SOURCES"), "w") as f:
        f.write("# sample  epoch-commit  message-id\n" + "\n".join(sources) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

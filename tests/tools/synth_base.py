#!/usr/bin/env python3
"""A base tree a patch series applies to exactly, made from the series alone.

Real series from a list archive are written against trees this machine does
not have. To compare how two readers (git am, kseries) apply a series, both
need the same base; this builds the smallest honest one from the patches
themselves: every file a patch modifies gets the lines its hunks quote (the
context and removed lines, at the line numbers the @@ headers give) and
unique filler lines everywhere else. The series' patches are replayed in
order on a model of each file, so a later patch's context is checked against
what the earlier patches made of it.

Usage: synth_base.py OUT_DIR PATCH...   (PATCH: git mailinfo's patch output,
in series order). Writes the files under OUT_DIR and OUT_DIR.modes (one
"MODE PATH" line per executable file). Exit 0 when a consistent base exists;
exit 3 (and a reason on stderr) when the patches contradict each other, need
a binary preimage, or are not text diffs git apply reads; exit 2 on bad use.

The patch text is read as git apply reads it (apply.c: find_header,
parse_git_diff_header, parse_fragment): header lines from the optable, hunks
of exactly their counted lines, a trailing "\\ No newline" line, garbage
skipped between files.
"""
import os
import re
import sys

HEADER_LINES = ("--- ", "+++ ", "old mode ", "new mode ", "deleted file mode ", "new file mode ",
                "copy from ", "copy to ", "rename old ", "rename new ", "rename from ",
                "rename to ", "similarity index ", "dissimilarity index ", "index ")
MAX_OFFSET = 3000  # lines a hunk may sit away from its header's place
HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class Inconsistent(Exception):
    pass


def unquote(name):
    """A git path as written in a header line, C-quoted or not."""
    name = name.rstrip(b"\n")
    if not name.startswith(b'"'):
        return name.split(b"\t")[0]
    out = bytearray()
    i = 1
    while i < len(name) and name[i:i + 1] != b'"':
        c = name[i:i + 1]
        if c == b"\\":
            nxt = name[i + 1:i + 2]
            if nxt.isdigit():
                out.append(int(name[i + 1:i + 4], 8))
                i += 4
                continue
            out += {b"n": b"\n", b"t": b"\t", b'"': b'"', b"\\": b"\\"}.get(nxt, nxt)
            i += 2
            continue
        out += c
        i += 1
    return bytes(out)


def strip_prefix(path):
    return path.split(b"/", 1)[1] if b"/" in path else path


def header_name(line):
    """The name of a "diff --git a/X b/X" line when both halves agree."""
    rest = line[len(b"diff --git "):].rstrip(b"\n")
    if rest.startswith(b'"'):
        return None
    half = (len(rest) - 1) // 2
    a, b = rest[:half], rest[half + 1:]
    if a.startswith(b"a/") and b.startswith(b"b/") and a[2:] == b[2:]:
        return a[2:]
    return None


class FilePatch:
    def __init__(self):
        self.old = self.new = None
        self.is_new = self.is_delete = self.is_rename = self.is_copy = False
        self.old_mode = self.new_mode = None
        self.hunks = []  # (old_start, old_count, [(kind, text_with_newline_or_not)])
        self.binary = False


def parse_patch(data):
    """The file patches of a patch text, as git apply finds them."""
    lines = data.splitlines(keepends=True)
    files = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith(b"diff --git "):
            if (line.startswith(b"--- ") and i + 2 < len(lines) and
                    lines[i + 1].startswith(b"+++ ") and lines[i + 2].startswith(b"@@ -")):
                i = parse_traditional(lines, i, files)
                continue
            i += 1
            continue
        fp = FilePatch()
        default = header_name(line)
        i += 1
        while i < len(lines):
            h = lines[i]
            if h.startswith(b"@@ -"):
                break
            match = next((p for p in HEADER_LINES if h.startswith(p.encode())), None)
            if match is None:
                break
            value = h[len(match):].rstrip(b"\n")
            if match == "--- " and value != b"/dev/null":
                fp.old = strip_prefix(unquote(value))
            elif match == "+++ " and value != b"/dev/null":
                fp.new = strip_prefix(unquote(value))
            elif match == "old mode ":
                fp.old_mode = value
            elif match == "new mode ":
                fp.new_mode = value
            elif match == "deleted file mode ":
                fp.is_delete, fp.old_mode = True, value
            elif match == "new file mode ":
                fp.is_new, fp.new_mode = True, value
            elif match in ("copy from ", "rename from ", "rename old "):
                fp.old = unquote(value)
                fp.is_copy, fp.is_rename = match == "copy from ", match != "copy from "
            elif match in ("copy to ", "rename to ", "rename new "):
                fp.new = unquote(value)
            elif match == "index " and b" " in value:
                fp.old_mode = fp.old_mode or value.split(b" ")[1]
            i += 1
        if fp.old is None and not fp.is_new:
            fp.old = default
        if fp.new is None and not fp.is_delete:
            fp.new = default
        if fp.old is None and fp.new is None:
            raise Inconsistent("a diff header without names")
        while i < len(lines) and lines[i].startswith(b"@@ -"):
            i = parse_hunk(lines, i, fp)
        if i < len(lines) and (lines[i] == b"GIT binary patch\n" or
                               (lines[i].startswith(b"Binary files ") and
                                lines[i].endswith(b" differ\n"))):
            fp.binary = True
        files.append(fp)
    return files


def traditional_name(line):
    """git apply's name of a traditional "--- "/"+++ " line (None: /dev/null): -p1, or
    -p0 for a name without a directory (a simplification of its guess_p_value)."""
    value = line[4:].rstrip(b"\n").split(b"\t", 1)[0].rstrip(b" ")
    if value == b"/dev/null":
        return None
    if b"/" not in value:
        return value  # git apply guesses -p0 for such names
    return value.split(b"/", 1)[1]


def parse_traditional(lines, i, files):
    """A "--- a/f" "+++ b/f" section without "diff --git", as git apply reads it."""
    fp = FilePatch()
    old, new = traditional_name(lines[i]), traditional_name(lines[i + 1])
    fp.is_new, fp.is_delete = old is None, new is None
    name = new if new is not None else old
    fp.old = None if fp.is_new else name
    fp.new = None if fp.is_delete else name
    i += 2
    while i < len(lines) and lines[i].startswith(b"@@ -"):
        i = parse_hunk(lines, i, fp)
    files.append(fp)
    return i


def parse_hunk(lines, i, fp):
    m = HUNK.match(lines[i])
    if not m:
        raise Inconsistent("a malformed @@ line")
    old_start, old_count = int(m.group(1)), int(m.group(2) or 1)
    new_count = int(m.group(4) or 1)
    body = []
    i += 1
    left_old, left_new = old_count, new_count
    while (left_old > 0 or left_new > 0) and i < len(lines):
        line = lines[i]
        kind = line[:1]
        if line == b"\n":
            kind, line = b" ", b" \n"
        if kind == b" ":
            left_old -= 1
            left_new -= 1
        elif kind == b"-":
            left_old -= 1
        elif kind == b"+":
            left_new -= 1
        elif kind == b"\\":
            no_newline(body)
            i += 1
            continue
        else:
            raise Inconsistent("a hunk cut short")
        body.append([kind, line[1:]])
        i += 1
    if i < len(lines) and lines[i].startswith(b"\\ "):
        no_newline(body)
        i += 1
    fp.hunks.append((old_start, old_count, body))
    return i


def no_newline(body):
    if body:
        body[-1][1] = body[-1][1].rstrip(b"\n")


class FileModel:
    """A file of the base, known only where the patches quote it."""

    def __init__(self, path):
        self.path = path
        self.lines = {}        # base line number (1-based) -> text
        self.length = None     # the base file's number of lines, once a hunk pins it
        self.mode = None


class Series:
    def __init__(self):
        self.base = {}         # path -> FileModel, for files the base has
        self.absent = set()    # paths the base must not have
        self.cur = {}          # path -> list of items ("b", k, model) | ("c", text) | ("t", k, model)
        self.offsets = 0       # hunks placed away from their header's line, as git apply would

    def current(self, path):
        if path in self.cur:
            return self.cur[path]
        if path in self.absent:
            return None
        model = self.base.setdefault(path, FileModel(path))
        self.cur[path] = [("t", 1, model)]
        return self.cur[path]

    def apply_file(self, fp):
        if fp.binary:
            if fp.is_new and not fp.hunks:
                self.create(fp.new, [])
                return
            raise Inconsistent(f"a binary patch of {fp.new or fp.old!r} needs its preimage")
        if fp.is_new:
            self.create(fp.new, [])
            items = self.cur[fp.new]
        else:
            items = self.current(fp.old)
            if items is None:
                raise Inconsistent(f"{fp.old!r} is patched after it was deleted")
            model = self.base.get(fp.old)
            if model is not None and model.mode is None and fp.old_mode:
                model.mode = fp.old_mode
        delta = 0
        for old_start, old_count, body in fp.hunks:
            delta += self.apply_hunk(items, old_start + delta, old_count, body, fp)
        if fp.is_delete:
            self.must_end(items, 0, fp.old)
            del self.cur[fp.old]
            self.absent.add(fp.old)
            return
        if fp.is_rename or fp.is_copy:
            if self.current_exists(fp.new):
                raise Inconsistent(f"{fp.new!r} is the target of a rename but exists")
            self.cur[fp.new] = items if fp.is_rename else list(items)
            if fp.is_rename:
                del self.cur[fp.old]
                self.absent.add(fp.old)

    def current_exists(self, path):
        if path in self.cur:
            return True
        if path in self.absent:
            return False
        # Untouched so far: the base may or may not have it; decide "no".
        self.absent.add(path)
        return False

    def create(self, path, lines):
        if self.current_exists(path):
            raise Inconsistent(f"new file {path!r} exists already")
        self.cur[path] = [("c", text) for text in lines]

    @staticmethod
    def expand(items, n):
        """Make items[0:n] explicit lines; False when the file is shorter."""
        for j in range(n):
            if j >= len(items):
                return False
            if items[j][0] == "t":
                _, k, model = items[j]
                if model.length is not None and k > model.length:
                    return False
                items[j:j + 1] = [("b", k, model), ("t", k + 1, model)]
        return True

    def must_end(self, items, at, path):
        """The file ends after items[0:at]."""
        rest = items[at:]
        if not rest:
            return
        if len(rest) == 1 and rest[0][0] == "t":
            _, k, model = rest[0]
            if model.length is not None and model.length != k - 1:
                raise Inconsistent(f"{path!r}: two lengths for the base file")
            model.length = k - 1
            del items[at:]
            return
        raise Inconsistent(f"{path!r}: a hunk must end the file but lines follow")

    def fits(self, items, at, old):
        """Whether the hunk's old lines can sit at items[at:], as far as known."""
        if at < 0 or not self.expand(items, at + len(old)):
            return False
        for j, text in enumerate(old):
            item = items[at + j]
            if item[0] == "b":
                known = item[2].lines.get(item[1])
                if known is not None and known != text:
                    return False
            elif item[1] != text:
                return False
        return True

    def apply_hunk(self, items, start, old_count, body, fp):
        """Returns how many lines the hunk adds (for the next hunk's position)."""
        path = fp.old or fp.new
        old = [text for kind, text in body if kind in (b" ", b"-")]
        new = [text for kind, text in body if kind in (b" ", b"+")]
        trailing = 0
        for kind, _ in reversed(body):
            if kind != b" ":
                break
            trailing += 1
        expected = 0 if start == 0 else (start - 1 if old_count > 0 else start)
        # As git apply: where the header says, else the nearest place the
        # context fits (a hunk at the file's start must stay there).
        tries = [expected] if start <= 1 else \
            [expected + d for n in range(0, MAX_OFFSET + 1) for d in ((0,) if n == 0 else (-n, n))]
        at = next((t for t in tries if self.fits(items, t, old)), None)
        if at is None:
            raise Inconsistent(f"{path!r}: a hunk at line {start} fits nowhere near it")
        if at != expected:
            self.offsets += 1
        for j, text in enumerate(old):
            item = items[at + j]
            if item[0] == "b":
                item[2].lines[item[1]] = text
            if not text.endswith(b"\n"):
                self.must_end(items, at + j + 1, path)
        if trailing == 0 or (old and not old[-1].endswith(b"\n")):
            self.must_end(items, at + len(old), path)
        if start == 0 and old_count == 0:
            self.must_end(items, 0, path)
        items[at:at + len(old)] = [("c", text) for text in new]
        return len(new) - len(old)


def write_base(series, out):
    os.makedirs(out, exist_ok=True)
    modes = []
    for path, model in sorted(series.base.items()):
        length = model.length
        if length is None:
            length = max(model.lines, default=0) + 3
        content = bytearray()
        for k in range(1, length + 1):
            text = model.lines.get(k)
            if text is None:
                text = b"synthetic base line %d of %s\n" % (k, path)
            content += text
        target = os.path.join(out, os.fsdecode(path))
        os.makedirs(os.path.dirname(target) or out, exist_ok=True)
        with open(target, "wb") as f:
            f.write(bytes(content))
        if model.mode in (b"100755",):
            os.chmod(target, 0o755)
            modes.append(path)
    with open(out.rstrip("/") + ".modes", "wb") as f:
        for path in modes:
            f.write(b"100755 " + path + b"\n")


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    series = Series()
    try:
        for number, name in enumerate(argv[2:], 1):
            with open(name, "rb") as f:
                for fp in parse_patch(f.read()):
                    series.apply_file(fp)
    except Inconsistent as why:
        print(f"synth_base: patch {number}: {why}", file=sys.stderr)
        return 3
    write_base(series, argv[1])
    if series.offsets:
        print(f"offsets: {series.offsets} hunk(s) apply only away from their header's line")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

# --junit/--json/--html/--kcidb FILE where FILE is not a plain new file: a
# FIFO is written into and stays a FIFO, a symlink stays a link and its
# target gets the report, a directory is refused. (They used to be replaced
# by a regular file renamed over them: as root, --junit /dev/full replaced
# the device node. Only a FIFO and links in a temporary directory here,
# never a real device node.)
source "$(dirname "$0")/lib.bash"
make_toy_repo "$TMP/toy"
base=$(git -C "$TMP/toy" rev-parse HEAD~2)
git -C "$TMP/toy" format-patch -q -o "$TMP/good" --base="$base" HEAD~2
(cd "$TMP/good" && ls *.patch >series)
apply() {
  "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/good" --tree "$TMP/toy" --base "$base" "$@"
}

# A FIFO: kseries writes one document into it, the report (no placeholder
# first: its reader would leave with that, tests/junit_fifo_full_disk.sh);
# a reader takes it; the FIFO is still a FIFO.
mkfifo "$TMP/junit.fifo"
# (timeout: a FIFO replaced by a file leaves its reader blocked on the old inode)
(timeout 60 cat "$TMP/junit.fifo" >"$TMP/fifo-1.xml") &
reader=$!
expect_exit 0 apply --junit "$TMP/junit.fifo" --branch fifo
if ! [ -p "$TMP/junit.fifo" ]; then
  kill "$reader" 2>/dev/null || true
  fail "the FIFO was replaced: $(ls -l "$TMP/junit.fifo")"
fi
wait "$reader"
expect_grep "<testsuites" "$TMP/fifo-1.xml"
expect_grep "toy: change line twenty" "$TMP/fifo-1.xml"

# A symlink to a file: the link survives, the target holds the report.
echo old >"$TMP/target.xml"
ln -s target.xml "$TMP/link.xml"
expect_exit 0 apply --junit "$TMP/link.xml" --branch link
[ -L "$TMP/link.xml" ] || fail "the symlink was replaced by a file"
expect_grep "<testsuites" "$TMP/target.xml"
# A dangling symlink: its target is created, the link stays.
ln -s made.xml "$TMP/dangling.xml"
expect_exit 0 apply --junit "$TMP/dangling.xml" --branch dangling
[ -L "$TMP/dangling.xml" ] || fail "the dangling symlink was replaced by a file"
expect_grep "<testsuites" "$TMP/made.xml"

# --json of plan, into a FIFO and through a symlink.
mkfifo "$TMP/plan.fifo"
timeout 60 cat "$TMP/plan.fifo" >"$TMP/plan-from-fifo.json" &
reader=$!
expect_exit 0 "$KSERIES" plan --workdir "$TMP/wd" --series "$TMP/good" --matrix quick \
  --json "$TMP/plan.fifo"
if ! [ -p "$TMP/plan.fifo" ]; then
  kill "$reader" 2>/dev/null || true
  fail "the --json FIFO was replaced"
fi
wait "$reader"
python3 -m json.tool "$TMP/plan-from-fifo.json" >/dev/null || fail "the FIFO got no JSON"
ln -s plan-target.json "$TMP/plan-link.json"
expect_exit 0 "$KSERIES" plan --workdir "$TMP/wd" --series "$TMP/good" --matrix quick \
  --json "$TMP/plan-link.json"
[ -L "$TMP/plan-link.json" ] || fail "the --json symlink was replaced"
python3 -m json.tool "$TMP/plan-target.json" >/dev/null || fail "the link's target got no JSON"

# A directory is refused, not replaced; nothing is left beside it.
mkdir "$TMP/adir"
expect_exit 2 "$KSERIES" plan --workdir "$TMP/wd" --series "$TMP/good" --matrix quick \
  --json "$TMP/adir"
expect_grep "cannot write $TMP/adir: it is a directory" "$TMP/err"
[ -d "$TMP/adir" ] || fail "the directory was replaced"
ls "$TMP" | grep -q partial && fail "a partial file was left behind: $(ls "$TMP")"

# Input files are regular files: a FIFO given as a series is refused at
# once (it used to block forever, past SIGTERM), /dev/zero too.
mkdir "$TMP/fifo-series" && mkfifo "$TMP/fifo-series/series"
expect_exit 2 timeout -s KILL 60 "$KSERIES" apply --workdir "$TMP/wd" \
  --series "$TMP/fifo-series" --tree "$TMP/toy" --base "$base"
expect_grep "not a regular file" "$TMP/err"
expect_exit 2 timeout -s KILL 60 "$KSERIES" apply --workdir "$TMP/wd" --series /dev/zero \
  --tree "$TMP/toy" --base "$base"
expect_grep "/dev/zero" "$TMP/err"
echo "PASS"

# --junit where a plain file would not do (issue 50). A FIFO got the "did
# not finish" placeholder for a run that succeeded (its reader took that
# and went), then kseries blocked until killed on the real report; now a
# stream gets one document, the last, and the run ends. On a file system
# that fills during the run, `apply --junit` left the placeholder (the
# report and the error both failed to write); now the error is written over
# the placeholder, in place, naming the full disk.
source "$(dirname "$0")/lib.bash"
make_toy_repo "$TMP/toy"
base=$(git -C "$TMP/toy" rev-parse HEAD~2)
git -C "$TMP/toy" branch topic
common=(apply --workdir "$TMP/wd" --tree "$TMP/toy" --base "$base")

# A FIFO: the reader gets the run's own report, once; kseries ends.
mkfifo "$TMP/junit.fifo"
timeout 60 cat "$TMP/junit.fifo" >"$TMP/read.xml" &
reader=$!
expect_exit 0 timeout -s KILL 60 "$KSERIES" "${common[@]}" --series "$base..topic" --branch fifo \
  --junit "$TMP/junit.fifo"
wait "$reader" || fail "the FIFO's reader did not get a whole document"
grep -q "did not finish" "$TMP/read.xml" && fail "the FIFO got the placeholder: $(cat "$TMP/read.xml")"
expect_grep '<testcase .*toy: rename and add' "$TMP/read.xml"
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$TMP/read.xml" ||
  fail "the FIFO got no valid XML"
# A run that fails early gets its error through the FIFO just as once.
timeout 60 cat "$TMP/junit.fifo" >"$TMP/read.xml" &
reader=$!
expect_exit 2 timeout -s KILL 60 "$KSERIES" "${common[@]}" --series "$TMP/no-such" \
  --junit "$TMP/junit.fifo"
wait "$reader" || fail "the FIFO's reader did not get the error"
expect_grep 'usage error' "$TMP/read.xml"
[ -p "$TMP/junit.fifo" ] || fail "the FIFO was replaced"

# A file system that fills during the run: a tmpfs of 64 KiB, filled by
# the first git kseries runs (a stand-in on PATH), after the placeholder.
command -v unshare >/dev/null || { echo "skipped: no unshare"; exit 77; }
mkdir -p "$TMP/full" "$TMP/bin"
cat >"$TMP/bin/git" <<EOS
#!/bin/sh
if [ ! -e "$TMP/filled" ]; then
  touch "$TMP/filled"
  dd if=/dev/zero of="$TMP/full/filler" bs=4096 2>/dev/null
fi
exec /usr/bin/git "\$@"
EOS
chmod +x "$TMP/bin/git"
cat >"$TMP/run-full" <<EOS
mount -t tmpfs -o size=64k tmpfs "$TMP/full" || exit 77
PATH="$TMP/bin:\$PATH" "$KSERIES" ${common[*]} --series "$base..topic" --branch full \
  --junit "$TMP/full/junit.xml"
echo "exit \$?"
cp "$TMP/full/junit.xml" "$TMP/after-full.xml"
EOS
set +e
unshare -m sh "$TMP/run-full" >"$TMP/out" 2>"$TMP/err"
rc=$?
set -e
[ "$rc" = 77 ] && { echo "skipped: cannot mount a tmpfs here"; exit 77; }
[ -e "$TMP/filled" ] || fail "the file system was never filled: $(cat "$TMP/err")"
expect_grep "^exit 2$" "$TMP/out"
expect_grep "No space left on device" "$TMP/err"
grep -q "did not finish" "$TMP/after-full.xml" &&
  fail "a full disk left the placeholder: $(cat "$TMP/after-full.xml")"
expect_grep '<testcase .*name="infrastructure error"' "$TMP/after-full.xml"
expect_grep 'No space left on device' "$TMP/after-full.xml"
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$TMP/after-full.xml" ||
  fail "the report written in place is no valid XML"
echo "ok: a FIFO gets one document, the last; a full disk gets the error, not the placeholder"

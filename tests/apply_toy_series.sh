# A 2-patch series made with git format-patch on a toy repository: kseries
# apply yields commits whose trees, authors, dates and messages are the
# originals', on a branch, with a JUnit report; the user's repo is untouched.
source "$(dirname "$0")/lib.bash"
make_toy_repo "$TMP/toy"
base=$(git -C "$TMP/toy" rev-parse HEAD~2)
git -C "$TMP/toy" format-patch -q -o "$TMP/series/toy/v1" --cover-letter --base="$base" HEAD~2
(cd "$TMP/series/toy/v1" && ls *.patch >series)
git -C "$TMP/toy" checkout -q -b elsewhere "$base"
echo "dirty" >>"$TMP/toy/file.txt"
before=$(git -C "$TMP/toy" show-ref; git -C "$TMP/toy" status --porcelain; git -C "$TMP/toy" symbolic-ref HEAD)

expect_exit 0 "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/series/toy/v1" \
  --tree "$TMP/toy" --base "$base" --junit "$TMP/junit.xml"
expect_grep "^branch series/toy/v1 " "$TMP/out"
expect_grep "applied toy/v1 2/2" "$TMP/out"
expect_grep "applying toy/v1" "$TMP/err"

store="$TMP/wd/repo.git"
for i in 0 1; do
  for fmt in %T "%an <%ae>" %ad %B; do
    ours=$(git --git-dir "$store" log -1 --format="$fmt" "series/toy/v1~$i")
    theirs=$(git -C "$TMP/toy" log -1 --format="$fmt" "main~$i")
    [ "$ours" = "$theirs" ] || fail "commit ~$i differs in $fmt: '$ours' vs '$theirs'"
  done
done
after=$(git -C "$TMP/toy" show-ref; git -C "$TMP/toy" status --porcelain; git -C "$TMP/toy" symbolic-ref HEAD)
[ "$before" = "$after" ] || fail "the user's repository changed"

expect_grep '<testsuites tests="2" failures="0" errors="0"' "$TMP/junit.xml"
ls "$TMP"/wd/runs/*-apply/junit.xml >/dev/null || fail "no junit.xml in the run directory"

# Same series again: same commits, the branch is reused, a new run directory.
expect_exit 0 "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/series/toy/v1" \
  --tree "$TMP/toy" --base "$base"
[ "$(ls -d "$TMP"/wd/runs/*-apply* | wc -l)" = 2 ] || fail "expected two run directories"
echo "PASS"

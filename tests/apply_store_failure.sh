# An object store that refuses writes is an infrastructure failure (exit 2,
# no verdict on the series), not "does not apply" (exit 1) with a JUnit
# failure. Tests run as root, which ignores permission bits, so the store is
# broken in a way root cannot write through either: the directory the
# applied objects go to, objects/pack (one pack per apply: git/object_buffer.h;
# it was objects/<xx> of the post-image blob while each object was a loose
# file), is replaced by a file.
source "$(dirname "$0")/lib.bash"
make_toy_repo "$TMP/toy"
base=$(git -C "$TMP/toy" rev-parse HEAD~2)
# A patch whose post-image is in no repository yet (made in a clone that
# the run does not see), so git_apply_to_tree has to write it.
git clone -q "$TMP/toy" "$TMP/elsewhere"
git -C "$TMP/elsewhere" checkout -q -b fresh "$base"
sed -i 's/^line 7$/line seven, nowhere else/' "$TMP/elsewhere/file.txt"
git -C "$TMP/elsewhere" commit -q -am "toy: change line seven"
git -C "$TMP/elsewhere" format-patch -q -1 -o "$TMP/series"
(cd "$TMP/series" && ls *.patch >series)
blob=$(git -C "$TMP/elsewhere" rev-parse fresh:file.txt)
git -C "$TMP/toy" cat-file -e "$blob" 2>/dev/null && fail "the post-image is already in the toy repository"

# The work directory exists (an earlier run of another series), then the
# store breaks where the new blob would go.
git -C "$TMP/toy" format-patch -q -1 -o "$TMP/earlier" HEAD~1
(cd "$TMP/earlier" && ls *.patch >series)
expect_exit 0 "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/earlier" --tree "$TMP/toy" \
  --base "$base" --branch earlier
objects="$TMP/wd/repo.git/objects"
rm -rf "${objects:?}/pack" && : >"$objects/pack"
expect_exit 2 "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/series" --tree "$TMP/toy" \
  --base "$base" --branch broken --junit "$TMP/junit.xml"
expect_grep "kseries apply: error: cannot store the objects of series: " "$TMP/err"
expect_grep "not the patch's fault" "$TMP/err"
grep -q "does not apply" "$TMP/out" "$TMP/err" && fail "an infrastructure failure judged the series"
if [ -e "$TMP/junit.xml" ] && grep -q "<failure" "$TMP/junit.xml"; then
  fail "a JUnit failure for a broken store"
fi
git --git-dir "$TMP/wd/repo.git" rev-parse -q --verify refs/heads/broken >/dev/null \
  && fail "a branch was created"
# Repaired, the same run applies.
rm "$objects/pack" && mkdir "$objects/pack"
expect_exit 0 "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/series" --tree "$TMP/toy" \
  --base "$base" --branch repaired
pgrep -f "$TMP" >/dev/null && fail "a process survived"
echo "PASS"

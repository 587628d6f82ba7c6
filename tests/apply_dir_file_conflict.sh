# Directory/file conflicts: a patch that creates file.txt/x where the tree
# has a file file.txt, or a file sub where the tree has a directory sub.
# git am refuses both ("Not a directory"); libgit2 silently dropped one side
# (file.txt vanished). kseries reports the patch as not applying (exit 1),
# naming the paths, and creates no branch. A patch that deletes file.txt and
# creates file.txt/x in one go still applies.
source "$(dirname "$0")/lib.bash"
make_toy_repo "$TMP/toy"
toy=$TMP/toy
base=$(git -C "$toy" rev-parse HEAD~2)
store="$TMP/wd/repo.git"
apply() {  # apply EXIT SERIES BASE
  expect_exit "$1" "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/$2" --tree "$toy" \
    --base "$3" --branch "$2"
}
export_last() {  # export_last NAME: the last commit of HEAD as a one-patch series
  git -C "$toy" format-patch -q -1 -o "$TMP/$1"
  (cd "$TMP/$1" && ls *.patch >series)
}

# file.txt/x where the base has a file file.txt (made from a history
# without file.txt, so the patch only adds file.txt/x).
git -C "$toy" checkout -q -b nofile "$base"
git -C "$toy" rm -q file.txt && git -C "$toy" commit -q -m "drop file.txt"
mkdir "$toy/file.txt" && echo x >"$toy/file.txt/x"
git -C "$toy" add -A && git -C "$toy" commit -q -m "toy: add file.txt/x"
export_last under-a-file
grep -q '^+++ b/file.txt/x$' "$TMP"/under-a-file/*.patch || fail "unexpected patch"
apply 1 under-a-file "$base"
expect_grep "FAILED under-a-file 1/1 toy: add file.txt/x" "$TMP/out"
expect_grep "patch 1/1 'toy: add file.txt/x' (.*) does not apply" "$TMP/out"
expect_grep "file.txt/x: the patch creates it, but 'file.txt' is a file in the tree" "$TMP/out"
expect_grep "no branch created" "$TMP/out"

# A file sub where the base has a directory sub.
git -C "$toy" checkout -q -b withdir "$base"
mkdir "$toy/sub" && echo a >"$toy/sub/a"
git -C "$toy" add -A && git -C "$toy" commit -q -m "toy: add sub/a"
git -C "$toy" checkout -q -b addfile "$base"
echo file >"$toy/sub" && git -C "$toy" add -A && git -C "$toy" commit -q -m "toy: add file sub"
export_last over-a-dir
apply 1 over-a-dir withdir
expect_grep "sub: the patch creates it as a file, but it is a directory in the tree (holding 'sub/a')" \
  "$TMP/out"

# Replacing the file by a directory in one patch is fine, as with git am.
git -C "$toy" checkout -q -b replace "$base"
git -C "$toy" rm -q file.txt && mkdir "$toy/file.txt" && echo x >"$toy/file.txt/x"
git -C "$toy" add -A && git -C "$toy" commit -q -m "toy: file.txt becomes a directory"
export_last replace
apply 0 replace "$base"
[ "$(git --git-dir "$store" ls-tree -r --name-only replace)" = "$(git -C "$toy" ls-tree -r --name-only replace)" ] \
  || fail "the replacing patch gave another tree"

for refused in under-a-file over-a-dir; do
  git --git-dir "$store" rev-parse -q --verify "refs/heads/$refused" >/dev/null \
    && fail "a branch was created for $refused"
done
pgrep -f "$TMP" >/dev/null && fail "a process survived"
echo "PASS"

# --tree DIR is read, never written: not even the mtime of an object file.
# libgit2 "freshens" (touches) an object that git_odb_write finds already
# stored, in whichever backend has it -- the user's repository when it is an
# alternate. Every post-image of the toy series is already in the toy
# repository, loose and then packed.
source "$(dirname "$0")/lib.bash"
make_toy_repo "$TMP/toy"
base=$(git -C "$TMP/toy" rev-parse HEAD~2)
git -C "$TMP/toy" format-patch -q -o "$TMP/series" --base="$base" HEAD~2
(cd "$TMP/series" && ls *.patch >series)
# The post-image of the first patch is in the user's repository.
git -C "$TMP/toy" cat-file -e "$(git -C "$TMP/toy" rev-parse HEAD~1:file.txt)"

snapshot() { find "$TMP/toy" -printf '%p %T@ %s %m\n' | sort; }
for layout in loose packed; do
  [ $layout = packed ] && git -C "$TMP/toy" repack -q -a -d && git -C "$TMP/toy" prune-packed
  # Old times, so any touch shows whatever the clock's resolution.
  find "$TMP/toy" -exec touch -h -d 2001-01-01 {} +
  snapshot >"$TMP/before"
  expect_exit 0 "$KSERIES" apply --workdir "$TMP/wd-$layout" --series "$TMP/series" \
    --tree "$TMP/toy" --base "$base"
  expect_grep "^applied series 2/2 " "$TMP/out"
  snapshot >"$TMP/after"
  diff "$TMP/before" "$TMP/after" || fail "$layout: the user's repository changed"
  # The result is complete in the work directory (through the alternate).
  git --git-dir "$TMP/wd-$layout/repo.git" fsck --no-progress --no-dangling series/series 2>&1 \
    || fail "$layout: the store is incomplete"
  [ "$(git --git-dir "$TMP/wd-$layout/repo.git" rev-parse series/series^{tree})" = \
    "$(git -C "$TMP/toy" rev-parse HEAD^{tree})" ] || fail "$layout: another tree"
done
pgrep -f "$TMP" >/dev/null && fail "a process survived"
echo "PASS"

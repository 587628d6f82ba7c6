# --series BASE..TOP over a history with merges (issue 50): git format-patch
# leaves merge commits out, and with them what a merge itself changed (its
# conflict resolution), so kseries applied and tested a tree TOP never had,
# exit 0 and no note. Now each commit of TOP's first-parent line is one
# patch, a merge its diff against its first parent: the applied tip's tree
# is TOP's. A base off that line, or not an ancestor of TOP, is refused
# with the reason; revision syntax with an '@' (base@{0}) is a revision,
# not a message-id sent to lore.
source "$(dirname "$0")/lib.bash"
repo=$TMP/toy
mkdir -p "$repo"
git -C "$repo" init -q -b main
printf 'one\ntwo\nthree\n' >"$repo/file.txt"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
git -C "$repo" branch base
git -C "$repo" checkout -q -b side
sed -i 's/^two$/two (side)/' "$repo/file.txt"
echo side >"$repo/side.txt"
git -C "$repo" add -A && git -C "$repo" commit -q -m "side: change two"
git -C "$repo" checkout -q main
sed -i 's/^two$/two (main)/' "$repo/file.txt"
git -C "$repo" commit -q -am "main: change two"
# The merge conflicts; its resolution is a line neither side wrote.
git -C "$repo" merge -q side >/dev/null 2>&1 && fail "the toy merge did not conflict"
printf 'one\ntwo (resolved)\nthree\n' >"$repo/file.txt"
git -C "$repo" add -A && git -C "$repo" commit -q -m "Merge branch side"
echo after >"$repo/after.txt"
git -C "$repo" add -A && git -C "$repo" commit -q -m "main: after the merge"
wd=(--workdir "$TMP/wd" --tree "$repo")
tree_of() { git --git-dir="$1" rev-parse "$2^{tree}"; }

expect_exit 0 "$KSERIES" apply "${wd[@]}" --series base..main --branch merged
expect_grep "3 commit(s) on .* (1 merge(s), each one patch of what it changed against its first parent)" "$TMP/err"
[ "$(tree_of "$TMP/wd/repo.git" merged)" = "$(tree_of "$repo/.git" main)" ] ||
  fail "the applied tree is not main's: $(git --git-dir="$TMP/wd/repo.git" show merged:file.txt)"
[ "$(git --git-dir="$TMP/wd/repo.git" show merged:file.txt | sed -n 2p)" = "two (resolved)" ] ||
  fail "the merge's resolution is not in the tested tree"
expect_grep "Merge branch side" "$TMP/out"

# The same with revision syntax that holds an '@': a range of the tree, not
# a message-id fetched from lore (no b4, no inbox is asked).
expect_exit 0 "$KSERIES" apply "${wd[@]}" --series 'base@{0}..main' --branch reflog \
  --inbox http://127.0.0.1:9/none
[ "$(tree_of "$TMP/wd/repo.git" reflog)" = "$(tree_of "$repo/.git" main)" ] ||
  fail "base@{0}..main did not give main's tree"
# Whole words: a hex hash in the log (3da80b9b47…) holds "b4" by chance.
grep -qwE "b4|message-id|lore" "$TMP/err" && fail "base@{0}..main was taken for a message-id: $(cat "$TMP/err")"
git -C "$repo" checkout -q main
expect_exit 0 "$KSERIES" apply "${wd[@]}" --series '@~1..@' --branch at-sign
expect_grep "range @~1..@: 1 commit(s)" "$TMP/err"

# A base on the side branch: not on main's first-parent line.
expect_exit 2 "$KSERIES" apply "${wd[@]}" --series side..main --branch off-line
expect_grep "is not on the first-parent line of" "$TMP/err"
# A base that is no ancestor of the top: its patches would go onto a tree
# the top never had.
git -C "$repo" checkout -q -b other base
echo other >"$repo/other.txt" && git -C "$repo" add -A && git -C "$repo" commit -q -m other
expect_exit 2 "$KSERIES" apply "${wd[@]}" --series other..side --branch stray
expect_grep "is not an ancestor of" "$TMP/err"
echo "ok: a range with a merge tests TOP's tree; off-line and stray bases are refused"

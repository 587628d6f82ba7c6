# Where a diff ends, with real `git format-patch --binary` output: a binary
# file that is the last one of a patch (its blank line ends the literal; it
# was cut: "corrupt git binary patch separator"), and a hunk line "-- " that
# removes the line "- " (it was taken for the signature). git am applies
# both; kseries must give the same trees.
source "$(dirname "$0")/lib.bash"
toy=$TMP/toy
mkdir -p "$toy" && git -C "$toy" init -q -b main
printf 'a\n- \nb\n' >"$toy/notes.txt"
echo text >"$toy/file.txt"
git -C "$toy" add -A && git -C "$toy" commit -q -m "toy base"
base=$(git -C "$toy" rev-parse HEAD)
printf 'bin\0ary\0\1\2\3' >"$toy/zz.bin"
echo text2 >"$toy/file.txt"
git -C "$toy" add -A && git -C "$toy" commit -q -m "toy: add a binary file last"
printf 'a\nb\n' >"$toy/notes.txt"
git -C "$toy" commit -q -am "toy: drop the dash line"
printf 'a\n- \n- \nb\n' >"$toy/notes.txt"
printf 'ary\0bin\0\3' >"$toy/zz.bin"
git -C "$toy" commit -q -am "toy: change the binary file, add dash lines"
git -C "$toy" format-patch -q --binary -o "$TMP/series" --base="$base" "$base"
(cd "$TMP/series" && ls *.patch >series)
# The inputs are what the scenario is about.
for n in 0001 0003; do
  grep -E '^(diff --git|GIT binary patch)' "$TMP"/series/$n-*.patch | tail -n 1 | grep -q '^GIT binary' \
    || fail "the binary file is not the last one of $n"
done
[ "$(grep -cx -- '-- ' "$TMP"/series/0002-*.patch)" = 2 ] || fail "0002 has no hunk line '-- '"

expect_exit 0 "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/series" --tree "$toy" \
  --base "$base" --branch extent
expect_grep "^applied series 3/3 " "$TMP/out"
for n in 0 1 2; do
  [ "$(git --git-dir "$TMP/wd/repo.git" rev-parse "extent~$n^{tree}")" = \
    "$(git -C "$toy" rev-parse "HEAD~$n^{tree}")" ] || fail "tree of patch $((3 - n)) differs from git's"
done
# git am agrees (the reference).
git -C "$toy" checkout -q -b am "$base"
git -C "$toy" am -q --whitespace=nowarn "$TMP"/series/*.patch
[ "$(git -C "$toy" rev-parse am^{tree})" = "$(git -C "$toy" rev-parse main^{tree})" ] \
  || fail "git am gives another tree"
pgrep -f "$TMP" >/dev/null && fail "a process survived"
echo "PASS"

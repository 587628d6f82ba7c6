# git format-patch of a commit that adds "foo bar" (git leaves the name
# unquoted: "diff --git a/foo bar b/foo bar") made `kseries apply` die with
# SIGSEGV (exit 139). It applies as git am applies it: the same tree.
source "$(dirname "$0")/lib.bash"
make_toy_repo "$TMP/toy"
base=$(git -C "$TMP/toy" rev-parse HEAD)
echo hello >"$TMP/toy/foo bar"
git -C "$TMP/toy" add -A && git -C "$TMP/toy" commit -q -m "toy: add foo bar"
echo more >>"$TMP/toy/foo bar"
git -C "$TMP/toy" mv "foo bar" "baz qux"
git -C "$TMP/toy" commit -q -am "toy: change and rename foo bar"
git -C "$TMP/toy" format-patch -q -o "$TMP/spaces" --base="$base" "$base..HEAD"
(cd "$TMP/spaces" && ls *.patch >series)
expect_exit 0 "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/spaces" --tree "$TMP/toy" \
  --base "$base" --branch spaces
want=$(git -C "$TMP/toy" rev-parse HEAD^{tree})
got=$(git --git-dir "$TMP/wd/repo.git" rev-parse "spaces^{tree}")
[ "$got" = "$want" ] || fail "applied tree $got, git's $want"
echo "PASS"

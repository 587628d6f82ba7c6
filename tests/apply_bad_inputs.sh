# Bad inputs: each gets exit 2 (usage) or 1 (a patch does not apply) with a
# message naming the patch and file, and leaves no branch and no process.
source "$(dirname "$0")/lib.bash"
make_toy_repo "$TMP/toy"
base=$(git -C "$TMP/toy" rev-parse HEAD~2)
git -C "$TMP/toy" format-patch -q -o "$TMP/good" --base="$base" HEAD~2
(cd "$TMP/good" && ls *.patch >series)
branches() { git --git-dir "$TMP/wd/repo.git" for-each-ref refs/heads 2>/dev/null | wc -l; }

# A gap in the numbering.
mkdir "$TMP/gap" && cp "$TMP/good/0002-"*.patch "$TMP/gap/" && (cd "$TMP/gap" && ls *.patch >series)
expect_exit 2 "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/gap" --tree "$TMP/toy" --base "$base"
expect_grep "patch 1/2 is missing" "$TMP/err"
expect_grep "0002-toy-rename-and-add.patch" "$TMP/err"

# A path traversal.
mkdir "$TMP/evil"
sed 's#a/file.txt#a/../../etc/file.txt#g; s#b/file.txt#b/../../etc/file.txt#g; s#\[PATCH 1/2\]#[PATCH]#' \
  "$TMP/good/0001-"*.patch >"$TMP/evil/0001-evil.patch"
echo 0001-evil.patch >"$TMP/evil/series"
expect_exit 2 "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/evil" --tree "$TMP/toy" --base "$base"
expect_grep "patch 1/1 'toy: change line twenty'" "$TMP/err"
expect_grep "'..' component: '../../etc/file.txt'" "$TMP/err"

# A tree that moved: the hunk fails, the offset is reported, exit 1.
git -C "$TMP/toy" checkout -q -b moved "$base"
sed -i '1i extra one\nextra two\nextra three' "$TMP/toy/file.txt"
git -C "$TMP/toy" commit -q -am "move"
expect_exit 1 "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/good" --tree "$TMP/toy" --base moved
expect_grep "FAILED good 1/2 toy: change line twenty" "$TMP/out"
expect_grep "file.txt: hunk 1 '@@ -17,7 +17,7 @@ line 16': context found 3 lines below (at line 20)" "$TMP/out"
expect_grep "base-commit mismatch" "$TMP/out"
expect_grep "no branch created" "$TMP/out"
[ "$(branches)" = 0 ] || fail "a branch was created for a failed series"

# --keep-applied keeps exactly the patches that applied, named as such.
git -C "$TMP/toy" checkout -q -b two "$base"
sed -i 's/^line 5$/line five/' "$TMP/toy/file.txt" && git -C "$TMP/toy" commit -q -am "toy: five"
sed -i 's/^line 35$/line thirty-five/' "$TMP/toy/file.txt" && git -C "$TMP/toy" commit -q -am "toy: thirty-five"
git -C "$TMP/toy" format-patch -q -o "$TMP/two" --base="$base" "$base..two"
(cd "$TMP/two" && ls *.patch >series)
git -C "$TMP/toy" checkout -q -b drift "$base"
sed -i 's/^line 36$/line 36 drifted/' "$TMP/toy/file.txt" && git -C "$TMP/toy" commit -q -am "drift"
expect_exit 1 "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/two" --tree "$TMP/toy" \
  --base drift --keep-applied
expect_grep "context not found anywhere" "$TMP/out"
expect_grep "^branch series/two.partial-1-of-2 " "$TMP/out"
[ "$(branches)" = 1 ] || fail "expected exactly the partial branch"
git --git-dir "$TMP/wd/repo.git" log -1 --format=%s series/two.partial-1-of-2 | grep -q "toy: five" \
  || fail "the partial branch does not end at the patch that applied"

# Options.
expect_exit 2 "$KSERIES" apply --workdir "$TMP/wd"
expect_grep "the option '--series' is required" "$TMP/err"
expect_exit 2 "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/good" --no-such-option
expect_grep "no-such-option" "$TMP/err"
expect_exit 2 "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/nowhere"
expect_grep "series not found: $TMP/nowhere" "$TMP/err"
expect_exit 2 "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/good" --tree "$TMP/toy" --base nosuchrev
expect_grep "--base nosuchrev: no such revision" "$TMP/err"
expect_exit 2 "$KSERIES" no-such-command
# A stray word (--base forgotten) is refused by every command, not ignored.
expect_exit 2 "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/good" --tree "$TMP/toy" "$base"
expect_grep "unexpected argument '$base'" "$TMP/err"
expect_exit 2 "$KSERIES" tree --workdir "$TMP/wd" one two
expect_grep "kseries tree: unexpected arguments 'one', 'two'" "$TMP/err"
expect_exit 2 "$KSERIES" build --workdir "$TMP/wd" pmem
expect_grep "kseries build: unexpected argument 'pmem'" "$TMP/err"
expect_exit 2 "$KSERIES" apply --workdir '' --series "$TMP/good" --tree "$TMP/toy" --base "$base"
expect_grep "\-\-workdir '' is an empty path" "$TMP/err"
# A relative --workdir is made absolute once, at the start.
(cd "$TMP" && expect_exit 0 "$KSERIES" apply --workdir rel-wd --series good --tree toy \
  --base "$base" --branch relative)
expect_grep "^branch relative .* in $TMP/rel-wd/repo.git$" "$TMP/out"
expect_grep "^run directory $TMP/rel-wd/runs/" "$TMP/out"
expect_exit 0 "$KSERIES" --help
expect_exit 0 "$KSERIES" apply --help
expect_grep "kseries apply --series" "$TMP/out"
expect_exit 0 "$KSERIES" tree --help
[ "$(branches)" = 1 ] || fail "bad input created a branch"
pgrep -f "$TMP" >/dev/null && fail "a process survived"
echo "PASS"

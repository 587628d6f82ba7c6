# What the last hardening pass left (issue 50, class 9), through the binary:
# a target key given twice was taken (the last won); --branch refs/heads/x
# made refs/heads/refs/heads/x; --series <(...) failed on the pipe's path
# once read; a path `.g<ZWJ>it/config` (git fsck: hasDotgit) was applied; a
# series-file entry ../secret.txt had a line of the secret quoted back; a
# patch listed twice failed as "context not found".
source "$(dirname "$0")/lib.bash"
make_toy_repo "$TMP/toy"
base=$(git -C "$TMP/toy" rev-parse HEAD~2)
git -C "$TMP/toy" format-patch -q -o "$TMP/series/toy/v1" --base="$base" HEAD~2
(cd "$TMP/series/toy/v1" && ls *.patch >series)
wd=(--workdir "$TMP/wd" --tree "$TMP/toy" --base "$base")
repo=$TMP/wd/repo.git

# A key given twice: refused naming both lines, before anything is built.
mkdir -p "$TMP/configs/targets" "$TMP/configs/fragments"
echo 'CONFIG_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\ncompiler: gcc\ncompiler: clang-16\n' >"$TMP/configs/targets/dup.target"
expect_exit 2 "$KSERIES" build "${wd[@]}" --configs "$TMP/configs" --target dup
expect_grep "dup.target:3: 'compiler:' again (first at line 2)" "$TMP/err"

# --branch refs/heads/x is branch x.
expect_exit 0 "$KSERIES" apply "${wd[@]}" --series "$TMP/series/toy/v1" --branch refs/heads/full-ref
git --git-dir="$repo" rev-parse -q --verify refs/heads/full-ref >/dev/null ||
  fail "no branch full-ref: $(git --git-dir="$repo" for-each-ref)"
git --git-dir="$repo" rev-parse -q --verify refs/heads/refs/heads/full-ref >/dev/null &&
  fail "--branch refs/heads/x made refs/heads/refs/heads/x"
expect_exit 2 "$KSERIES" apply "${wd[@]}" --series "$TMP/series/toy/v1" --branch refs/tags/v1
expect_grep "git reads as refs/tags/v1 first" "$TMP/err"

# --series <(...): a pipe, read once, kept as a file.
expect_exit 0 bash -c '"$1" apply "${@:2}" --series <(git -C "$0" format-patch --stdout HEAD~2) \
  --branch piped' "$TMP/toy" "$KSERIES" "${wd[@]}"
expect_grep "a pipe, read once" "$TMP/err"
expect_grep "applied .* 2/2" "$TMP/out"
git --git-dir="$repo" rev-parse -q --verify refs/heads/piped >/dev/null || fail "no branch piped"

# A path that is .git to HFS+ (a zero-width joiner in it) or NTFS (git~1).
for name in $'.g\u200dit' 'GIT~1' '.git. '; do
  mkdir -p "$TMP/dotgit"
  cat >"$TMP/dotgit/0001-x.patch" <<EOP
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Toy Author <toy@example.com>
Date: Mon, 1 Jan 2024 00:00:00 +0000
Subject: [PATCH] hooks

---
diff --git a/$name/config b/$name/config
new file mode 100644
index 0000000..e69de29
--- /dev/null
+++ b/$name/config
@@ -0,0 +1 @@
+[core]
EOP
  expect_exit 2 "$KSERIES" apply "${wd[@]}" --series "$TMP/dotgit/0001-x.patch" --branch dotgit
  expect_grep "a path inside .git" "$TMP/err"
done

# A reference to what is no other revision's patch: refused unread.
mkdir -p "$TMP/series/toy/leak"
echo "password=hunter2" >"$TMP/series/toy/secret.txt"
echo "../secret.txt" >"$TMP/series/toy/leak/series"
expect_exit 2 "$KSERIES" apply "${wd[@]}" --series "$TMP/series/toy/leak" --branch leak
expect_grep "is not a patch of another revision" "$TMP/err"
grep -q hunter2 "$TMP/err" "$TMP/out" && fail "a line of the secret was quoted: $(cat "$TMP/err")"

# A patch listed twice: said so, naming both lines.
# (Unnumbered patches: the m/n numbering would name a duplicate anyway.)
git -C "$TMP/toy" format-patch -q -N -o "$TMP/series/toy/twice" HEAD~2
first=$(cd "$TMP/series/toy/twice" && ls *.patch | head -1)
{ (cd "$TMP/series/toy/twice" && ls *.patch); echo "$first"; } >"$TMP/series/toy/twice/series"
expect_exit 2 "$KSERIES" apply "${wd[@]}" --series "$TMP/series/toy/twice" --branch twice
expect_grep "series:3: lists '$first' again (first at .*series:1)" "$TMP/err"
grep -q "context" "$TMP/err" && fail "a patch listed twice read as a context failure"
echo "ok: the last pass's leftovers are refused or done right"

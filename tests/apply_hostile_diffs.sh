# Hostile diffs: what libgit2 reads, not only what the text looks like. Mode
# and path spellings that libgit2 accepts but a text check misses ("new file
# mode 0120000", a trailing space, the mode of an "index" line, "rename
# new /abs") are refused (exit 2) naming the patch and path; no symlink,
# submodule or outside path reaches a branch.
source "$(dirname "$0")/lib.bash"
make_toy_repo "$TMP/toy"
base=$(git -C "$TMP/toy" rev-parse HEAD~2)
store="$TMP/wd/repo.git"

# diff_series NAME: a one-patch series whose diff is read from stdin.
diff_series() {
  mkdir -p "$TMP/$1"
  {
    printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
    printf 'From: Eve <eve@example.com>\nDate: Tue, 1 Dec 2026 00:16:55 +0000\n'
    printf 'Subject: [PATCH] evil: %s\n\nBody.\n---\n' "$1"
    cat
    printf -- '-- \n2.39.5\n'
  } >"$TMP/$1/0001.patch"
  echo 0001.patch >"$TMP/$1/series"
}
refused() {  # refused NAME MESSAGE
  expect_exit 2 "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/$1" --tree "$TMP/toy" \
    --base "$base" --branch "$1"
  expect_grep "patch 1/1 'evil: $1' (.*): $2" "$TMP/err"
  git --git-dir "$store" rev-parse -q --verify "refs/heads/$1" >/dev/null \
    && fail "a branch was created for $1"
  return 0
}
new_link() {  # new_link MODE-LINE
  printf 'diff --git a/link b/link\n%s\nindex 0000000..3594e94\n--- /dev/null\n+++ b/link\n' "$1"
  printf '@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n'
}
change_file() {  # change_file INDEX-MODE
  printf 'diff --git a/file.txt b/file.txt\nindex 1111111..2222222 %s\n' "$1"
  printf -- '--- a/file.txt\n+++ b/file.txt\n@@ -1,3 +1,3 @@\n line 1\n-line 2\n+line two\n line 3\n'
}

new_link 'new file mode 0120000' | diff_series link-leading-zero
refused link-leading-zero "refuses a symlink (mode 120000) on 'link'"
new_link 'new file mode 120000 ' | diff_series link-trailing-space
refused link-trailing-space "refuses a symlink (mode 120000) on 'link'"
change_file 0120000 | diff_series index-link
refused index-link "refuses a symlink (mode 120000) on 'file.txt'"
change_file 0160000 | diff_series index-gitlink
refused index-gitlink "refuses a submodule (mode 160000) on 'file.txt'"
printf 'diff --git a/old.txt b/old.txt\nsimilarity index 100%%\nrename old old.txt\nrename new /tmp/abs.txt\n' |
  diff_series rename-new-absolute
refused rename-new-absolute "refuses to touch an absolute path: '/tmp/abs.txt'"

# A NUL byte in a hunk line: libgit2 read heap memory into the blob.
change_file 100644 | sed 's/^+line two$/+line\x00two/' | diff_series nul-in-hunk
refused nul-in-hunk "refuses a NUL byte in line 8 of the diff of 'file.txt'"

# Nothing of them reached a branch.
if git --git-dir "$store" for-each-ref --format='%(refname)' refs/heads | grep -q .; then
  for ref in $(git --git-dir "$store" for-each-ref --format='%(refname)' refs/heads); do
    git --git-dir "$store" ls-tree -r "$ref" | grep -E '^(120000|160000) ' && fail "$ref holds a link"
  done
fi
pgrep -f "$TMP" >/dev/null && fail "a process survived"
echo "PASS"

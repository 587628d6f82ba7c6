# --series as commits of the user's own tree: a range (base = its bottom)
# and a `b4 prep` branch (made with the real b4: its cover-letter commit is
# the cover letter, its change-id the series identity) give the same commits
# as the format-patch directory of those commits (git format-patch for the
# range; for the b4 branch also `b4 send -o`'s mails, but for their dates,
# which b4 sets when it sends), with the commits' own authors, dates and
# messages; the user's repository is not touched.
source "$(dirname "$0")/lib.bash"
skip_unless_installed b4
repo=$TMP/toy
make_toy_repo "$repo"
base=$(git -C "$repo" rev-parse HEAD~2)
git -C "$repo" branch topic
# HEAD is not the base: a range that fell back to HEAD would apply nothing.
echo later >"$repo/later.txt" && git -C "$repo" add later.txt && git -C "$repo" commit -q -m later
state() { git -C "$repo" for-each-ref --format='%(refname) %(objectname)'; git -C "$repo" rev-parse HEAD
          git -C "$repo" status --porcelain; }
before=$(state)
tip_of() { sed -n 's/^branch [^ ]* \([0-9a-f]\{40\}\) in .*/\1/p' "$TMP/out"; }
wd=(--workdir "$TMP/wd")

# The reference: the format-patch directory of base..topic.
git -C "$repo" format-patch -q -o "$TMP/fp/toy/v1" --base="$base" "$base..topic"
(cd "$TMP/fp/toy/v1" && ls *.patch >series)
expect_exit 0 "$KSERIES" apply "${wd[@]}" --tree "$repo" --base "$base" --series "$TMP/fp/toy/v1" --branch fp
fp_tip=$(tip_of)
[ -n "$fp_tip" ] || fail "no branch line for the format-patch directory"

# The range, without --base: the bottom is the base.
expect_exit 0 "$KSERIES" apply "${wd[@]}" --tree "$repo" --series "$base..topic" --branch range
range_tip=$(tip_of)
[ "$range_tip" = "$fp_tip" ] || fail "range tip $range_tip is not the format-patch directory's $fp_tip"
expect_grep "^applied .* 2/2 .*toy: rename and add" "$TMP/out"
# Authorship, dates and messages are the commits' own.
log() { git --git-dir="$1" log --format='%an <%ae> %ad%n%B' "$2"; }
[ "$(log "$TMP/wd/repo.git" "$base..range")" = "$(log "$repo/.git" "$base..topic")" ] \
  || fail "the range's commits do not keep the original authorship and messages"
# Written once: a second use of the range reuses the directory (and counts it).
expect_exit 0 "$KSERIES" plan "${wd[@]}" --tree "$repo" --series "$base..topic" --matrix quick
expect_grep '"name": "topic/v1"' "$TMP/out"
expect_grep "series range $base..topic: 2 commit(s)" "$TMP/err"
# A range names commits of a repository: without --tree it is refused.
expect_exit 2 "$KSERIES" apply "${wd[@]}" --series "$base..topic"
expect_grep "needs --tree DIR" "$TMP/err"
expect_exit 2 "$KSERIES" apply "${wd[@]}" --tree "$repo" --series "$base..no-such-branch"
expect_grep "no-such-branch" "$TMP/err"
# A plain branch with no b4 cover commit: told to give a range.
expect_exit 2 "$KSERIES" apply "${wd[@]}" --tree "$repo" --series topic
expect_grep "no b4 cover-letter commit" "$TMP/err"

[ "$(state)" = "$before" ] || fail "the user's repository changed: $(state)"

# A b4 prep branch, made by b4 itself: cover commit, the patches on top.
git -C "$repo" config user.name "$GIT_AUTHOR_NAME"
git -C "$repo" config user.email "$GIT_AUTHOR_EMAIL"
git -C "$repo" checkout -q topic
(cd "$repo" && b4 prep -n toy-topic -f "$base" >/dev/null 2>&1) || fail "b4 prep -n failed"
git -C "$repo" cherry-pick "$base..topic" >/dev/null
printf '#!/bin/sh\nprintf "toy: the toy topic\\n\\nThe cover letter of the toy series.\\n\\nTo: toy@lists.example.org\\n" >"$1"\n' >"$TMP/editor"
chmod +x "$TMP/editor"
(cd "$repo" && EDITOR=$TMP/editor b4 prep --edit-cover >/dev/null 2>&1) || fail "b4 prep --edit-cover failed"
change_id=$(cd "$repo" && b4 prep --show-info 2>/dev/null | sed -n 's/^change-id: //p')
[ -n "$change_id" ] || fail "b4 prep gave no change-id"
mkdir -p "$TMP/b4send"
(cd "$repo" && b4 send --no-sign -o "$TMP/b4send" >"$TMP/b4send.log" 2>&1) || { cat "$TMP/b4send.log"; fail "b4 send -o failed"; }
(cd "$TMP/b4send" && ls *.eml >series)
git -C "$repo" checkout -q main
before=$(state)
expect_exit 0 "$KSERIES" apply "${wd[@]}" --tree "$repo" --base "$base" --series "$TMP/b4send" --branch b4send
b4send_tip=$(tip_of)
expect_grep "change-id $change_id v1" "$TMP/out"
expect_exit 0 "$KSERIES" apply "${wd[@]}" --tree "$repo" --series b4/toy-topic --branch b4branch
expect_grep "^series toy-topic/v1 \[change-id $change_id v1\]" "$TMP/out"
# b4 send dates its mails when it sends them; the rest is the same.
what() { git --git-dir="$TMP/wd/repo.git" log --format='%T %an <%ae>%n%B' "$base..$1"; }
[ "$(what "$(tip_of)")" = "$(what "$b4send_tip")" ] \
  || fail "the b4 branch's commits are not b4 send's: $(what "$(tip_of)") / $(what "$b4send_tip")"
[ "$(tip_of)" = "$fp_tip" ] || fail "b4 branch tip $(tip_of) is not the format-patch directory's $fp_tip"
cover=$(find "$TMP/wd/inputs" -name 0000-cover-letter.patch | head -1)
grep -q "^Subject: \[PATCH 0/2\] toy: the toy topic$" "$cover" || fail "cover: $(cat "$cover")"
grep -q "^base-commit: $base$" "$cover" || fail "cover has no base-commit: $(cat "$cover")"

[ "$(state)" = "$before" ] || fail "the user's repository changed: $(state)"
echo "PASS"

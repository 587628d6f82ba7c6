# A b4 prep branch whose tracking data (the JSON in its cover-letter commit,
# which anyone who pushed the branch wrote) holds a change-id with a newline
# in it: kseries writes the cover letter without it (a change-id is what b4
# itself writes: letters, digits, '.', '_', '-'), so the newline cannot
# start a header or a message of its own in the cover letter (issue 50,
# class 7: the change-id was written unchecked).
source "$(dirname "$0")/lib.bash"
skip_unless_installed b4
repo=$TMP/toy
make_toy_repo "$repo"
base=$(git -C "$repo" rev-parse HEAD~2)
git -C "$repo" branch topic
git -C "$repo" config user.name "$GIT_AUTHOR_NAME"
git -C "$repo" config user.email "$GIT_AUTHOR_EMAIL"
git -C "$repo" checkout -q topic
(cd "$repo" && b4 prep -n toy-topic -f "$base" >/dev/null 2>&1) || fail "b4 prep -n failed"
# The cover commit, its change-id made hostile.
git -C "$repo" log -1 --format=%B >"$TMP/cover-message"
grep -q '"change-id": "' "$TMP/cover-message" || fail "no change-id in b4's tracking data: $(cat "$TMP/cover-message")"
sed -i 's/"change-id": "\([^"]*\)"/"change-id": "\1\\n\\nFrom injected Mon Sep 17 00:00:00 2001\\nFrom: Evil <evil@example.org>\\nSubject: [PATCH 9\/9] injected"/' "$TMP/cover-message"
git -C "$repo" commit -q --amend --allow-empty -F "$TMP/cover-message"
git -C "$repo" cherry-pick "$base..topic" >/dev/null
git -C "$repo" checkout -q main

expect_exit 0 "$KSERIES" apply --workdir "$TMP/wd" --tree "$repo" --series b4/toy-topic
cover=$(find "$TMP/wd/inputs" -name 0000-cover-letter.patch | head -1)
[ -n "$cover" ] || fail "no cover letter written"
grep -q "injected\|evil@example.org" "$cover" && fail "the change-id's text reached the cover letter: $(cat "$cover")"
[ "$(grep -c '^From ' "$cover")" = 1 ] || fail "the cover letter holds more than one message: $(cat "$cover")"
grep -q '^change-id:' "$cover" && fail "an invalid change-id was written: $(cat "$cover")"
expect_grep "^applied .* 2/2" "$TMP/out"
echo PASS

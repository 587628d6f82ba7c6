# --series MESSAGE-ID through Debian's b4 against a real public-inbox
# (public-inbox-httpd on 127.0.0.1): two revisions of a toy series (v2 sent
# in reply to v1's cover letter) and a review reply carrying Reviewed-by:.
# By v1's message-id kseries takes the newest revision (v2), with the
# reviewer's trailer collected, onto the cover's base-commit (not --tree's
# HEAD); --b4-revision 1 takes v1, whose commits are those of its
# format-patch directory exactly. b4's cache and config stay in the work
# directory.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/inbox.bash"
repo=$TMP/toy
make_toy_repo "$repo"
base=$(git -C "$repo" rev-parse HEAD~2)
inbox_start
toy_revision "$repo" "$base" 1 "$TMP/mails/v1" "" "toy: five|sed -i 's/^line 5\$/line five/' file.txt" \
  "toy: seven|sed -i 's/^line 7\$/line seven/' file.txt"
v1_cover=$(message_id "$TMP/mails/v1/v1-0000-cover-letter.patch")
toy_revision "$repo" "$base" 2 "$TMP/mails/v2" "$v1_cover" "toy: five|sed -i 's/^line 5\$/line FIVE/' file.txt" \
  "toy: seven|sed -i 's/^line 7\$/line seven/' file.txt"
inbox_add "$TMP/mails/v1"/*.patch "$TMP/mails/v2"/*.patch
v2_first=$(message_id "$TMP/mails/v2/v2-0001-toy-five.patch")
cat >"$TMP/review.eml" <<MAIL
From: Rev Iewer <rev@example.com>
To: $INBOX_ADDR
Subject: Re: [PATCH v2 1/2] toy: five
Date: Wed, 2 Dec 2026 07:00:00 +0000
Message-Id: <review-1@example.com>
In-Reply-To: <$v2_first>
References: <$(message_id "$TMP/mails/v2/v2-0000-cover-letter.patch")> <$v2_first>

Looks right.

Reviewed-by: Rev Iewer <rev@example.com>
MAIL
inbox_add "$TMP/review.eml"
(cd "$TMP/mails/v1" && ls *.patch >series)
(cd "$TMP/mails/v2" && ls *.patch >series)
tip_of() { sed -n 's/^branch [^ ]* \([0-9a-f]\{40\}\) in .*/\1/p' "$TMP/out"; }
wd=(--workdir "$TMP/wd" --tree "$repo")

# The references: each revision's format-patch directory, onto the base.
expect_exit 0 "$KSERIES" apply "${wd[@]}" --base "$base" --series "$TMP/mails/v1" --branch fp1
fp1=$(tip_of)
expect_exit 0 "$KSERIES" apply "${wd[@]}" --base "$base" --series "$TMP/mails/v2" --branch fp2
fp2=$(tip_of)

# By v1's message-id, no --base: the newest revision, v2, on its base-commit.
expect_exit 0 "$KSERIES" apply "${wd[@]}" --inbox "$INBOX_URL" --series "<$v1_cover>" --branch b4new
expect_grep "change-id 20261202-toy-series-0123456789ab v2" "$TMP/out"
expect_grep "^applied .* 2/2 .*toy: seven" "$TMP/out"
b4new=$(tip_of)
git() { command git --git-dir="$TMP/wd/repo.git" "$@"; }
[ "$(git rev-parse "$b4new^{tree}")" = "$(git rev-parse "$fp2^{tree}")" ] \
  || fail "b4's v2 has another tree than v2's format-patch directory"
[ "$(git rev-parse "$b4new~2")" = "$base" ] || fail "b4's v2 is not on the cover's base-commit"
git log -1 --format=%B "$b4new~1" | grep -q "^Reviewed-by: Rev Iewer <rev@example.com>$" \
  || fail "the reviewer's trailer was not collected: $(git log -1 --format=%B "$b4new~1")"
[ "$(git log --format='%an %ae %ad %s' "$base..$b4new")" = "$(git log --format='%an %ae %ad %s' "$base..$fp2")" ] \
  || fail "b4's v2 does not keep the authors, dates and subjects"

# The revision asked for: v1, the same commits as its format-patch directory.
expect_exit 0 "$KSERIES" apply "${wd[@]}" --inbox "$INBOX_URL" --series "$v1_cover" --b4-revision 1 --branch b4v1
[ "$(tip_of)" = "$fp1" ] || fail "b4's v1 $(tip_of) is not the format-patch directory's $fp1"
unset -f git

# An unknown message-id: a usage error naming it, nothing applied.
expect_exit 2 "$KSERIES" apply "${wd[@]}" --inbox "$INBOX_URL" --series "<no-such@example.com>"
expect_grep "no-such@example.com" "$TMP/err"
# b4 kept its cache and configuration in the work directory.
[ ! -e "$TMP/.cache/b4" ] || fail "b4 wrote to the user's ~/.cache/b4"
[ -n "$(find "$TMP/wd/inputs" -path '*home*' -print -quit)" ] || fail "no b4 home in the work directory"
echo "PASS"

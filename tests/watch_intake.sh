# What the watch takes for a revision, on a real local public-inbox (issue
# 50, class 3): a series posted without a cover letter is gated and its
# answer says so, in reply to its first patch; "[PATCH] fixup ..." posted
# into a series' thread without "Re:" is not a new revision (recorded as
# such, not answered); another poster who copies a series' change-id does
# not become its previous revision (so the series' next answer is not
# compared with the intruder's, and opens with no false "slower than the
# previous revision" warning); a cover letter whose change-id is "b4" is
# taken like any other (it made every later poll exit 2: the fetch deleted
# b4's own output).
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/inbox.bash"
source "$(dirname "$0")/watch_lib.bash"
watch_setup
change_id=20261202-toy-series-0123456789ab

# The victim's v1 (careful: slow), then an intruder's "v2" with the victim's
# change-id (fast), not in its thread, from another address.
add_revision 1 "" careful
v1=$cover
post_intruder "[PATCH "

# A series without a cover letter: git send-email's threading, patch 2
# answering patch 1.
git -C "$repo" checkout -q -B lone "$base"
sed -i s/a5/A5/ "$repo/a.c" && git -C "$repo" commit -q -am "lone: rename a5"
sed -i s/a6/A6/ "$repo/a.c" && git -C "$repo" commit -q -am "lone: rename a6"
git -C "$repo" -c format.to="$INBOX_ADDR" format-patch -q --thread=shallow --base="$base" \
  -o "$TMP/mails/lone" "$base..lone"
git -C "$repo" checkout -q main
sed -i 's/^\(Message-I[dD]: <\)/\1lone-/; s/^\(In-Reply-To: <\|References: <\)/\1lone-/' "$TMP"/mails/lone/*.patch
lone=$(message_id "$TMP"/mails/lone/0001-*.patch)
inbox_add "$TMP"/mails/lone/*.patch

# A fixup posted into v1's thread, answering its patch 2, without "Re:".
p2=$(message_id "$TMP"/mails/v1/v1-0002-*.patch)
cat >"$TMP/fixup.eml" <<MAIL
From: Helper <helper@example.org>
To: $INBOX_ADDR
Subject: [PATCH] fixup: set the speed
Date: Wed, 2 Dec 2026 08:00:00 +0000
Message-Id: <fixup-1@example.org>
In-Reply-To: <$p2>
References: <$v1> <$p2>

Squash this in, please.
---
 speed | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/speed b/speed
index 1111111..2222222 100644
--- a/speed
+++ b/speed
@@ -1 +1 @@
-careful
+quick
MAIL
inbox_add "$TMP/fixup.eml"

# The victim's v3, in reply to its v1 (careful again); and a revision whose
# cover letter's change-id is "b4".
add_revision 3 "$v1" careful
v3=$cover
toy_revision "$repo" "$base" 1 "$TMP/mails/b4id" "" "other: rename a9|sed -i s/a9/A9/ a.c"
sed -i 's/^change-id: .*/change-id: b4/; s/toy: the toy series/other: the b4 series/' "$TMP"/mails/b4id/*.patch
sed -i 's/^\(Message-I[dD]: <\)/\1b4id-/; s/^\(In-Reply-To: <\|References: <\)/\1b4id-/' "$TMP"/mails/b4id/*.patch
b4id=$(message_id "$TMP/mails/b4id/v1-0000-cover-letter.patch")
inbox_add "$TMP"/mails/b4id/*.patch

expect_exit 0 "${watch[@]}" --once
cp "$TMP/out" "$TMP/poll1.out"
expect_grep "^watch: 6 new revision(s), 5 answer(s)" "$TMP/poll1.out"
expect_exit 0 "${watch[@]}" --once
expect_grep "^watch: 0 new revision(s), 0 answer(s)" "$TMP/out"

# The fixup: recorded, not answered, and why.
[ -z "$(answer_to fixup-1@example.org)" ] || fail "the fixup was answered as a revision"
jq -r 'select(.message_id == "fixup-1@example.org") | "\(.phase) \(.note)"' "$TMP"/wd/watch/*/*.json >"$TMP/fixup"
expect_grep "^ignored not a new revision: a patch posted in the thread of <$v1> (v1)" "$TMP/fixup"
# The series without a cover letter: answered in reply to its first patch.
mail=$(answer_to "$lone")
[ -n "$mail" ] || fail "the series without a cover letter was not answered: $(states)"
expect_grep "^Subject: Re: \[PATCH 1/2\] lone: rename a5" "$mail"
expect_grep "posted without a cover letter" "$mail"
expect_grep "^verdict: PASS" "$mail"
# The intruder is nobody's previous revision; v3's is v1, and no warning.
mail=$(answer_to "$v3")
[ -n "$mail" ] || fail "v3 not answered: $(states)"
expect_grep "reference: the previous revision, change-id $change_id v1 <$v1>" "$mail"
grep -q "WARNING" "$mail" && fail "v3's answer warns: $(cat "$mail")"
jq -r "select(.message_id == \"$v3\") | .note" "$TMP"/wd/watch/*/*.json >"$TMP/v3"
expect_grep "<$intruder> by intruder@example.net has this series' identity but another author and is not in this thread" "$TMP/v3"
mail=$(answer_to "$intruder")
expect_grep "no earlier revision seen" "$mail"
# change-id: b4: gated and answered like any other.
mail=$(answer_to "$b4id")
[ -n "$mail" ] || fail "the change-id b4 revision was not answered: $(states)"
expect_grep "kseries tested change-id b4 v1" "$mail"
echo PASS

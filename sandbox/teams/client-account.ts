/**
 * The Teams replica's in-page script, part 4: the signed-in account's "me control" in the title bar, as the
 * real web client shows it for a signed-in user: the avatar button `[data-tid="me-control-avatar-trigger"]`
 * (`#idna-me-control-avatar-trigger`, "Your profile, status Available") opens the account card, whose
 * `span[data-tid="me-control-displayname"]` is the account's display name (AWS's Live Meeting Assistant
 * reads the user's name there: aws-samples/amazon-transcribe-live-meeting-assistant,
 * lma-browser-extension-stack/public/content_scripts/providers/teams.js). The card closes on Escape or a
 * second click. A guest has no title bar account. Shares its closure with client-core.ts.
 */
export const teamsClientAccount = String.raw`
  var accountCard = null;

  function closeAccountCard() {
    if (accountCard) accountCard.remove();
    accountCard = null;
  }

  function renderMeControl(account) {
    var bar = document.getElementById('title-bar');
    if (!bar || !account) return;
    var initials = account.display_name.split(/\s+/).map(function (w) { return w.charAt(0); }).join('').slice(0, 2).toUpperCase();
    var trigger = h('button', { id: 'idna-me-control-avatar-trigger', 'data-tid': 'me-control-avatar-trigger', 'aria-label': 'Your profile, status Available', title: 'Your profile' }, [
      h('span', { 'class': 'avatar', text: initials }),
    ]);
    trigger.addEventListener('click', function () {
      if (accountCard) { closeAccountCard(); return; }
      accountCard = h('div', { 'class': 'account-card', role: 'dialog', 'data-tid': 'me-control-card' }, [
        h('span', { 'data-tid': 'me-control-displayname', text: account.display_name }),
        h('span', { 'class': 'note', text: 'Available' }),
      ]);
      document.body.appendChild(accountCard);
    });
    bar.replaceChildren(trigger);
  }

  document.addEventListener('keydown', function (ev) { if (ev.key === 'Escape') closeAccountCard(); });
`;

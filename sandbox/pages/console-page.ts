/**
 * The host console at https://localhost:PORT/: create meetings and act as their host (admit, deny,
 * remove, grant recording, simulated participants, end) through the control API. For people who
 * run the sandbox by hand; tests use the control API directly.
 */
const script = String.raw`
(function () {
  var list = document.getElementById('meetings');
  function api(method, path, body) {
    return fetch(path, { method: method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined })
      .then(function (r) { return r.json().then(function (j) { if (!r.ok) throw new Error(j.error || r.status); return j; }); })
      .catch(function (e) { document.getElementById('error').textContent = e.message; throw e; });
  }
  function h(tag, text, attrs) {
    var e = document.createElement(tag);
    if (text) e.textContent = text;
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  function button(label, action) {
    var b = h('button', label);
    b.addEventListener('click', function () { action().then(refresh, function () {}); });
    return b;
  }
  document.getElementById('create').addEventListener('submit', function (ev) {
    ev.preventDefault();
    var f = ev.target;
    api('POST', '/control/meetings', {
      platform: f.platform.value, lobby: f.lobby.checked, chat_enabled: f.chat.checked,
      host_present: f.host.checked, recording_permission: f.rec.value
    }).then(refresh, function () {});
  });
  function render(meetings) {
    list.replaceChildren.apply(list, meetings.slice().reverse().map(function (m) {
      var base = '/control/meetings/' + m.meeting_id;
      var box = h('section', '', { 'class': 'meeting' });
      var title = h('h3', m.platform + ' ' + m.meeting_id + (m.ended ? ' (ended)' : ''));
      var link = h('a', m.url, { href: m.url, target: '_blank' });
      box.append(title, link);
      var tools = h('div');
      if (!m.host_present) tools.append(button('Host starts', function () { return api('POST', base + '/host-start'); }));
      var simName = h('input', '', { placeholder: 'simulated name' });
      tools.append(simName, button('Add simulated', function () { return api('POST', base + '/simulated-participants', { name: simName.value || 'Guest' }); }));
      if (!m.ended) tools.append(button('End meeting', function () { return api('POST', base + '/end'); }));
      box.append(tools);
      var table = h('table');
      m.participants.forEach(function (p) {
        var row = h('tr');
        var pb = base + '/participants/' + p.participant_id;
        var sb = base + '/simulated-participants/' + p.participant_id;
        row.append(h('td', p.name || '(no name yet)'), h('td', p.kind), h('td', p.state), h('td', m.platform === 'vc' ? 'rec: ' + p.recording_permission : ''));
        var actions = h('td');
        if (p.state === 'lobby') actions.append(button('Admit', function () { return api('POST', pb + '/admit'); }), button('Deny', function () { return api('POST', pb + '/deny'); }));
        if (p.state === 'in_call' || p.state === 'lobby' || p.state === 'waiting_for_host') actions.append(button('Remove', function () { return api('POST', pb + '/remove'); }));
        if (p.state === 'in_call' && m.platform === 'vc' && p.kind === 'browser') {
          actions.append(button('Grant rec', function () { return api('POST', pb + '/recording-permission', { grant: true }); }),
            button('Refuse rec', function () { return api('POST', pb + '/recording-permission', { grant: false }); }));
        }
        if (p.state === 'in_call' && p.kind === 'simulated') {
          var text = h('input', '', { placeholder: 'say or chat' });
          actions.append(text, button('Speak', function () { return api('POST', sb + '/speak', { text: text.value || 'Hello' }); }),
            button('Chat', function () { return api('POST', pb + '/chat', { text: text.value || 'Hello' }); }),
            button('Leave', function () { return api('POST', sb + '/leave'); }));
        }
        row.append(actions);
        table.append(row);
      });
      box.append(table);
      var chat = h('ul');
      m.messages.forEach(function (x) { chat.append(h('li', x.sender_name + ': ' + x.text)); });
      box.append(chat);
      return box;
    }));
  }
  var busy = false;
  function refresh() {
    if (busy || document.activeElement && document.activeElement.tagName === 'INPUT' && document.activeElement.value) return;
    busy = true;
    api('GET', '/control/meetings').then(function (r) { render(r.meetings); }, function () {}).then(function () { busy = false; });
  }
  refresh();
  setInterval(refresh, 1000);
})();
`;

export function consolePage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Meeting sandbox: host console</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 24px; background: #fafafa; }
  .meeting { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 12px; margin: 12px 0; }
  td { padding: 2px 8px; } button { margin: 0 2px; } #error { color: #b00; }
</style></head>
<body><h1>Meeting sandbox: host console</h1>
<form id="create">
  <select name="platform"><option>vc</option><option>tm</option><option>mt</option></select>
  <label><input type="checkbox" name="lobby" checked> lobby</label>
  <label><input type="checkbox" name="chat" checked> chat</label>
  <label><input type="checkbox" name="host" checked> host present</label>
  <label>recording permission <select name="rec"><option>ask</option><option>grant</option><option>deny</option></select></label>
  <button>Create meeting</button>
</form>
<p id="error"></p>
<div id="meetings"></div>
<script>${script}</script>
</body></html>`;
}

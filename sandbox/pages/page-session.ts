/**
 * The part of every meeting page's script (the sandbox's and the replicas') that talks to the
 * sandbox's page API: JSON calls, polling it (ticks from a Web Worker: a hidden page's timers are
 * throttled, a worker's are not), taking the messages of a view it has not shown yet, and leaving when
 * the page goes away. It expects in its closure `cfg` (apiBase, pollMs), `pid`, `since`, `stopped` and
 * `apply(view)`. Plain browser JavaScript: no
 * backticks or dollar-brace sequences.
 */
export const pageSessionScript = String.raw`
  function api(method, path, body) {
    return fetch(cfg.apiBase + path, {
      method: method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
      cache: 'no-store'
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (j) {
        if (!r.ok) { var err = new Error(j.error || ('HTTP ' + r.status)); err.status = r.status; throw err; }
        return j;
      });
    });
  }

  var polling = false;
  function poll() {
    if (stopped || polling) return;
    polling = true;
    api('GET', '/state?participant_id=' + encodeURIComponent(pid) + '&since=' + since)
      .then(apply)
      .catch(function () {})
      .then(function () { polling = false; });
  }

  // Ticks come from a worker: timers of hidden pages (many bots share one browser) are throttled,
  // a worker's are not.
  function startTicking() {
    var source = 'setInterval(function () { postMessage(0); }, ' + cfg.pollMs + ');';
    try {
      var worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
      worker.onmessage = function () { if (stopped) worker.terminate(); else poll(); };
    } catch (e) {
      var timer = setInterval(function () { if (stopped) clearInterval(timer); else poll(); }, cfg.pollMs);
    }
  }

  // the messages of a view the page has not shown yet, in order (each moves since on); a gap waits for the next view
  function takeNewMessages(v, take) {
    var start = v.message_count - v.messages.length;
    for (var i = 0; i < v.messages.length; i++) {
      var index = start + i;
      if (index < since) continue;
      if (index > since) break;
      since++;
      take(v.messages[i], index);
    }
  }

  // changes whenever someone joins, leaves or is renamed
  function participantsKey(v) {
    return v.participants.map(function (p) { return p.participant_id + '\u0000' + p.name; }).join('\u0001');
  }

  window.addEventListener('pagehide', function () {
    if (pid && !stopped) navigator.sendBeacon(cfg.apiBase + '/leave', JSON.stringify({ participant_id: pid }));
  });
`;

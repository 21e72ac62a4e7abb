/**
 * In-page parts every replica flavour shares for the page shapes of replica-shapes.ts and the editors
 * of real clients (plain browser JavaScript: no backticks or dollar-brace sequences). Expects `cfg`
 * (with `cfg.shape`) and `h` in its closure.
 *
 *   contained(node)      node as the flavour's state container says: as it is, inside a same-origin
 *                        child frame, or inside a closed shadow root (each with the page's styles)
 *   redirectTo(kind)     navigates to the flavour's sign-in page, landing page or product site
 *   modelEditor(box, onSend)      a rich editor keeping its text in a model of its own (CKEditor 5,
 *                        ProseMirror): typing and inserted text change the model through
 *                        `beforeinput`, the DOM is rendered from it, a script's change to the DOM is
 *                        undone; Enter sends, Shift+Enter is a new line -> { text(), clear(), setEnabled(on) }
 *   controlledTextarea(ta)  a textarea whose text is state of its own (React's controlled input): an
 *                        input event whose value equals the last one set through `value` changes
 *                        nothing, so a script that sets `value` sends nothing -> { text(), clear() }
 */
export const pageShapesScript = String.raw`
  function pageStyles() {
    return Array.prototype.slice.call(document.querySelectorAll('style')).map(function (s) { return s.textContent; }).join('\n');
  }

  function contained(node) {
    var where = cfg.shape ? cfg.shape.state_container : 'page';
    if (where === 'frame') {
      var frame = h('iframe', { 'class': 'state-frame', title: 'state', style: 'border:0;width:100%;height:100vh;display:block' });
      frame.srcdoc = '<!doctype html><html><head><meta charset="utf-8"><style>' + pageStyles().replace(/<\/style/gi, '') + '</style></head><body></body></html>';
      frame.addEventListener('load', function () { frame.contentDocument.body.appendChild(frame.contentDocument.adoptNode(node)); });
      return frame;
    }
    if (where === 'closed_shadow_root') {
      var host = h('div', { 'class': 'state-host' });
      var root = host.attachShadow({ mode: 'closed' });
      var style = document.createElement('style');
      style.textContent = pageStyles();
      root.appendChild(style);
      root.appendChild(node);
      return host;
    }
    return node;
  }

  function redirectTo(kind) { location.href = cfg.shape.redirects[kind]; }

  function modelEditor(box, onSend) {
    var model = '';
    var observer = null;
    function caretToEnd() {
      var s = window.getSelection();
      if (!s || document.activeElement !== box) return;
      var r = document.createRange();
      r.selectNodeContents(box);
      r.collapse(false);
      s.removeAllRanges();
      s.addRange(r);
    }
    function render() {
      box.replaceChildren.apply(box, model.split('\n').map(function (line) {
        var p = document.createElement('p');
        if (line) p.textContent = line; else p.appendChild(document.createElement('br'));
        return p;
      }));
      caretToEnd();
      if (observer) observer.takeRecords();
    }
    function coversAll() {
      var s = window.getSelection();
      if (!s || !s.rangeCount || s.isCollapsed) return false;
      var r = s.getRangeAt(0), whole = document.createRange();
      whole.selectNodeContents(box);
      return r.compareBoundaryPoints(Range.START_TO_START, whole) <= 0 && r.compareBoundaryPoints(Range.END_TO_END, whole) >= 0;
    }
    box.addEventListener('beforeinput', function (ev) {
      ev.preventDefault();
      if (box.getAttribute('contenteditable') !== 'true') return;
      if (coversAll()) model = '';
      if (ev.inputType === 'insertText' || ev.inputType === 'insertReplacementText' || ev.inputType === 'insertFromPaste') model += ev.data || (ev.dataTransfer && ev.dataTransfer.getData('text/plain')) || '';
      else if (ev.inputType === 'insertLineBreak' || ev.inputType === 'insertParagraph') model += '\n';
      else if (ev.inputType === 'deleteContentBackward') model = model.slice(0, -1);
      else if (ev.inputType.indexOf('delete') === 0) model = '';
      render();
    });
    box.addEventListener('keydown', function (ev) {
      if (ev.key === 'Enter' && !ev.shiftKey) { ev.preventDefault(); onSend(); }
    });
    observer = new MutationObserver(function () { render(); });
    observer.observe(box, { childList: true, characterData: true, subtree: true });
    render();
    return {
      text: function () { return model; },
      clear: function () { model = ''; render(); },
      setEnabled: function (on) { box.setAttribute('contenteditable', on ? 'true' : 'false'); box.setAttribute('aria-disabled', on ? 'false' : 'true'); }
    };
  }

  function controlledTextarea(ta) {
    var native = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value');
    var state = '', tracked = '';
    Object.defineProperty(ta, 'value', {
      configurable: true,
      get: function () { return native.get.call(ta); },
      set: function (v) { tracked = String(v); native.set.call(ta, v); }
    });
    ta.addEventListener('input', function () {
      var v = native.get.call(ta);
      if (v === tracked) return;
      tracked = v;
      state = v;
    });
    return {
      text: function () { return state; },
      clear: function () { state = ''; tracked = ''; native.set.call(ta, ''); }
    };
  }
`;

/**
 * Wakes the bot's run loop as soon as the meeting page changes (a new screen, a participant, a chat
 * message) instead of waiting for the next tick: a MutationObserver calls the function `__botWake` at
 * most every 50 ms. Plain JavaScript, run in the bot's own world of every new document (browser/bot-world.ts).
 */
export const WAKE_BINDING = '__botWake';

export const pageWatcherSource = String.raw`
(() => {
  let pending = false;
  const wake = () => {
    if (pending) return;
    pending = true;
    setTimeout(() => {
      pending = false;
      if (typeof window.${WAKE_BINDING} === 'function') window.${WAKE_BINDING}().catch(() => undefined);
    }, 50);
  };
  const watch = () => new MutationObserver(wake).observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-state', 'data-name'] });
  if (document.documentElement) watch();
  else document.addEventListener('DOMContentLoaded', watch, { once: true });
})();
`;

/**
 * The element builder of the replicas' in-page scripts: `h(tag, attrs, children)`, where `text` sets
 * the text, `class` the class name, and null or undefined attributes are left out. Plain browser
 * JavaScript: no backticks or dollar-brace sequences.
 */
export const replicaDomScript = String.raw`
  function h(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'class') e.className = attrs[k];
      else if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }
`;

/* Small DOM helpers: build elements, replace children, toasts, one render per frame. */

const SVG_NS = 'http://www.w3.org/2000/svg';

export const $ = (selector) => document.querySelector(selector);

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'text') node.textContent = String(value);
    else if (key === 'dataset') {
      for (const [k, v] of Object.entries(value)) {
        if (v !== null && v !== undefined) node.dataset[k] = String(v);
      }
    } else if (key.startsWith('on') && typeof value === 'function') {
      node.addEventListener(key.slice(2), value);
    } else node.setAttribute(key, value === true ? '' : String(value));
  }
}

function addChildren(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace a node's children (null, undefined and false are left out). */
export function fill(node, ...children) {
  node.replaceChildren();
  addChildren(node, children);
}

/** An HTML element: h('button', {class: 'x', onclick: f}, 'text'). */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  addChildren(node, children);
  return node;
}

/** An SVG element. */
export function s(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  addChildren(node, children);
  return node;
}

export function toast(text, kind = 'info') {
  const holder = $('#toasts');
  const node = h('div', { class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
  node.addEventListener('click', () => node.remove());
  holder.append(node);
  setTimeout(() => node.remove(), kind === 'error' ? 8000 : 5000);
  while (holder.children.length > 5) holder.firstChild.remove();
}

/**
 * `draw` at most once per animation frame however often it is asked for: many frames
 * arriving together (a catch-up after a reconnect) make one render.
 */
export function oncePerFrame(draw) {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      draw();
    });
  };
}

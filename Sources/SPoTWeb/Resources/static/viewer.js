/* SPoT — the photo viewer (#viewer on the photo page; this file does nothing elsewhere).
   Opens zoomed to fill the viewer without empty bands; zooms with the wheel, pinch,
   double-click / double-tap and the buttons; pans by dragging, clamped so no band appears on an
   axis where the image is larger than the viewer; arrow keys, Escape and swipes navigate.
   The image keeps its natural size and is placed with one CSS transform
   (translate, then scale, transform-origin 0 0), so every position below is in viewer pixels.
   On phones (phone.css) the viewer fills the screen: an ⓘ button opens the details sheet, and a
   single tap on the photo hides or shows the bars. */
(() => {
  'use strict';

  const viewer = document.getElementById('viewer');
  const image = viewer ? viewer.querySelector('.viewer-image') : null;
  if (!viewer || !image) return;

  const detail = viewer.closest('#detail-pane') || document;
  const controls = viewer.querySelector('.viewer-controls');
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

  // s: scale; x, y: where the image's top-left corner is; iw, ih: natural size; vw, vh: viewer size.
  const state = { s: 1, x: 0, y: 0, iw: 0, ih: 0, vw: 0, vh: 0, ready: false };
  const EPSILON = 1e-3;

  // Marks the viewer as scripted: only then does CSS hide the image until it loads (no-JS pages show it).
  viewer.classList.add('is-enhanced');

  /* ------------------------------------------------------------ geometry */

  const fillScale = () => Math.max(state.vw / state.iw, state.vh / state.ih);
  const fitScale = () => Math.min(state.vw / state.iw, state.vh / state.ih);
  const maxScale = () => Math.max(4 * fillScale(), 1);   // 4× fill, or 1:1 pixels if that is larger
  const clampScale = (s) => Math.min(maxScale(), Math.max(fitScale(), s));
  const atFill = () => Math.abs(state.s / fillScale() - 1) < 0.01;

  // Larger than the viewer on an axis: no band may show; smaller: centred.
  function clampPan() {
    const w = state.iw * state.s;
    const h = state.ih * state.s;
    state.x = w > state.vw ? Math.min(0, Math.max(state.vw - w, state.x)) : (state.vw - w) / 2;
    state.y = h > state.vh ? Math.min(0, Math.max(state.vh - h, state.y)) : (state.vh - h) / 2;
  }

  function measure() {
    state.vw = viewer.clientWidth;
    state.vh = viewer.clientHeight;
  }

  let animationTimer = 0;
  function render(animate) {
    clearTimeout(animationTimer);
    const animated = !!animate && !reducedMotion.matches;
    viewer.classList.toggle('is-animating', animated);
    if (animated) animationTimer = setTimeout(() => viewer.classList.remove('is-animating'), 260);
    image.style.transform = `translate(${state.x}px, ${state.y}px) scale(${state.s})`;
    // Exposed for tests and styling; not read back by this script.
    viewer.dataset.scale = state.s.toFixed(4);
    viewer.dataset.fillScale = fillScale().toFixed(4);
    setDisabled('.zoom-in', state.s >= maxScale() - EPSILON);
    setDisabled('.zoom-out', state.s <= fitScale() + EPSILON);
    setDisabled('.zoom-fill', atFill() && Math.abs(state.x - (state.vw - state.iw * state.s) / 2) < 1 && Math.abs(state.y - (state.vh - state.ih * state.s) / 2) < 1);
  }

  // aria-disabled rather than disabled: a focused button keeps focus at the limit.
  function setDisabled(selector, disabled) {
    const button = controls && controls.querySelector(selector);
    if (button) button.setAttribute('aria-disabled', String(disabled));
  }

  function toFill(animate) {
    state.s = fillScale();
    state.x = (state.vw - state.iw * state.s) / 2;
    state.y = (state.vh - state.ih * state.s) / 2;
    render(animate);
  }

  // Zoom to scale `s`, keeping the image point under (px, py) where it is.
  function zoomTo(s, px, py, animate) {
    const next = clampScale(s);
    const k = next / state.s;
    state.x = px - (px - state.x) * k;
    state.y = py - (py - state.y) * k;
    state.s = next;
    clampPan();
    render(animate);
  }
  const zoomBy = (factor, animate) => zoomTo(state.s * factor, state.vw / 2, state.vh / 2, animate);

  // Double-click / double-tap: fill ⇄ 2.5× fill at that point.
  function toggleZoom(point) {
    if (atFill()) zoomTo(2.5 * fillScale(), point.x, point.y, true);
    else toFill(true);
  }

  /* ------------------------------------------------------------ loading */

  function onLoad() {
    if (!image.naturalWidth || !image.naturalHeight) { onError(); return; }
    const previousWidth = state.iw;
    const wasZoomed = state.ready && !atFill();
    state.iw = image.naturalWidth;
    state.ih = image.naturalHeight;
    measure();
    clearError();
    if (wasZoomed && previousWidth) {
      // <picture> switched to the other size (the viewport crossed 900 px): keep the same view.
      state.s *= previousWidth / state.iw;
      state.s = clampScale(state.s);
      clampPan();
      render(false);
    } else {
      toFill(false);
    }
    // Transform first, then natural-size mode: no frame shows the image unplaced.
    viewer.classList.add('is-zoomable');
    viewer.classList.remove('loading');
    state.ready = true;
  }

  function onError() {
    viewer.classList.remove('loading');
    viewer.classList.add('has-error');
    if (!viewer.querySelector('.viewer-error')) {
      const message = document.createElement('p');
      message.className = 'viewer-error';
      message.setAttribute('role', 'alert');
      message.textContent = 'Could not load the photo';
      viewer.append(message);
    }
  }

  function clearError() {
    viewer.classList.remove('has-error');
    const message = viewer.querySelector('.viewer-error');
    if (message) message.remove();
  }

  image.addEventListener('load', onLoad);
  image.addEventListener('error', onError);
  if (image.complete) {
    if (image.naturalWidth) onLoad(); else if (image.currentSrc || image.getAttribute('src')) onError();
  } else {
    viewer.classList.add('loading');
  }

  // Re-fit on resize and rotation, unless the user zoomed: then keep the centre where it is.
  function onResize() {
    const oldW = state.vw;
    const oldH = state.vh;
    measure();
    if (!state.ready || (state.vw === oldW && state.vh === oldH) || !state.vw || !state.vh) return;
    const wasFill = Math.abs(state.s / Math.max(oldW / state.iw, oldH / state.ih) - 1) < 0.01;
    if (wasFill) { toFill(false); return; }
    const cx = (oldW / 2 - state.x) / state.s;
    const cy = (oldH / 2 - state.y) / state.s;
    state.s = clampScale(state.s);
    state.x = state.vw / 2 - cx * state.s;
    state.y = state.vh / 2 - cy * state.s;
    clampPan();
    render(false);
  }
  if (typeof ResizeObserver === 'function') new ResizeObserver(onResize).observe(viewer);
  else window.addEventListener('resize', onResize);

  /* ------------------------------------------------------------ navigation */

  function follow(selector) {
    const link = detail.querySelector(selector);
    if (link && link.href) { location.assign(link.href); return true; }
    return false;
  }
  const goPrevious = () => follow('.detail-header a.prev');
  const goNext = () => follow('.detail-header a.next');
  const goBack = () => follow('.detail-header a.back') || follow('a.back');

  /* ------------------------------------------------------------ phone: details sheet, bars */

  // The ⓘ button (shown by phone.css on phones only) opens and closes the details sheet.
  const info = detail !== document ? detail.querySelector('.photo-info') : null;
  const infoButton = document.createElement('button');
  if (info) {
    if (!info.id) info.id = 'photo-info';
    infoButton.type = 'button';
    infoButton.className = 'info-toggle';
    infoButton.textContent = 'i';   // phone.css draws the icon
    infoButton.setAttribute('aria-controls', info.id);
    infoButton.setAttribute('aria-label', 'Details');
    infoButton.setAttribute('aria-expanded', 'false');
    infoButton.addEventListener('click', () => setInfoOpen(!detail.classList.contains('info-open')));
    viewer.after(infoButton);
  }
  function setInfoOpen(open) {
    if (!info) return false;
    const was = detail.classList.contains('info-open');
    detail.classList.toggle('info-open', open);
    infoButton.setAttribute('aria-expanded', String(open));
    if (open) detail.classList.remove('chrome-hidden');
    return was !== open;
  }

  // A single tap (not the first of a double tap) on the photo: the bars go or come back.
  let singleTapTimer = 0;
  function singleTap() {
    clearTimeout(singleTapTimer);
    singleTapTimer = setTimeout(() => {
      if (detail === document) return;
      if (detail.classList.contains('info-open')) setInfoOpen(false);
      else detail.classList.toggle('chrome-hidden');
    }, 330);
  }

  /* ------------------------------------------------------------ pointer gestures */

  const pointers = new Map();   // pointerId → {x, y} in viewer coordinates
  let gesture = null;
  let lastTap = null;
  let lastDoubleTap = 0;

  function pointOf(event) {
    const rect = viewer.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }
  const distance = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);
  const midpoint = (a, b) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

  function beginGesture(swipeAllowed) {
    const points = [...pointers.values()];
    if (points.length === 1) {
      const p = points[0];
      gesture = {
        type: 'pan', start: p, x0: state.x, y0: state.y, t0: performance.now(),
        swipe: swipeAllowed && atFill(), moved: false, overshoot: 0,
      };
    } else if (points.length >= 2) {
      const [a, b] = points;
      gesture = { type: 'pinch', d0: Math.max(1, distance(a, b)), m0: midpoint(a, b), s0: state.s, x0: state.x, y0: state.y };
    } else {
      gesture = null;
    }
  }

  viewer.addEventListener('pointerdown', (event) => {
    if (!state.ready || event.target.closest('.viewer-controls')) return;
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.preventDefault();   // no text selection or native image drag
    viewer.focus({ preventScroll: true });
    try { viewer.setPointerCapture(event.pointerId); } catch (_) { /* synthetic events */ }
    pointers.set(event.pointerId, pointOf(event));
    beginGesture(event.pointerType !== 'mouse' && pointers.size === 1);
  });

  viewer.addEventListener('pointermove', (event) => {
    if (!pointers.has(event.pointerId) || !gesture) return;
    pointers.set(event.pointerId, pointOf(event));
    if (gesture.type === 'pan') {
      const p = pointers.get(event.pointerId);
      const dx = p.x - gesture.start.x;
      const dy = p.y - gesture.start.y;
      if (!gesture.moved && Math.hypot(dx, dy) > 6) {
        gesture.moved = true;
        viewer.classList.add('is-dragging');
      }
      const wantedX = gesture.x0 + dx;
      state.x = wantedX;
      state.y = gesture.y0 + dy;
      clampPan();
      gesture.overshoot = wantedX - state.x;   // how far the finger went past the image's edge
      render(false);
    } else {
      const [a, b] = [...pointers.values()];
      const next = clampScale(gesture.s0 * distance(a, b) / gesture.d0);
      const m = midpoint(a, b);
      const k = next / gesture.s0;
      // The image point under the first midpoint follows the fingers' midpoint.
      state.x = m.x - (gesture.m0.x - gesture.x0) * k;
      state.y = m.y - (gesture.m0.y - gesture.y0) * k;
      state.s = next;
      clampPan();
      render(false);
    }
  });

  function endPointer(event) {
    if (!pointers.has(event.pointerId)) return;
    const point = pointOf(event);
    pointers.delete(event.pointerId);
    const ended = gesture;
    if (ended && ended.type === 'pan' && event.type === 'pointerup' && event.pointerType !== 'mouse') {
      const dx = point.x - ended.start.x;
      const dy = point.y - ended.start.y;
      const quick = performance.now() - ended.t0 < 400;
      // Swipe: one finger, at fill scale, > 60 px, mostly horizontal; a quick flick, or a drag
      // that pushed 60 px past the image's edge (slow drags pan a wide image instead).
      if (ended.swipe && Math.abs(dx) > 60 && Math.abs(dx) > 1.5 * Math.abs(dy) && (quick || Math.abs(ended.overshoot) > 60)) {
        if (dx < 0 ? goNext() : goPrevious()) { gesture = null; return; }
      }
      if (!ended.moved) {
        const now = performance.now();
        if (lastTap && now - lastTap.t < 320 && distance(lastTap, point) < 30) {
          lastTap = null;
          lastDoubleTap = now;
          clearTimeout(singleTapTimer);
          toggleZoom(point);
        } else {
          lastTap = { t: now, x: point.x, y: point.y };
          singleTap();
        }
      }
    }
    // Pinch → one finger left: continue as a pan from here (never a swipe).
    beginGesture(false);
    if (!gesture) viewer.classList.remove('is-dragging');
  }
  viewer.addEventListener('pointerup', endPointer);
  viewer.addEventListener('pointercancel', endPointer);

  viewer.addEventListener('dblclick', (event) => {
    if (!state.ready || event.target.closest('.viewer-controls')) return;
    if (performance.now() - lastDoubleTap < 600) return;   // a touch double-tap already handled it
    event.preventDefault();
    toggleZoom(pointOf(event));
  });

  // Wheel (and trackpad pinch, which arrives as ctrl+wheel): zoom around the cursor.
  viewer.addEventListener('wheel', (event) => {
    if (!state.ready) return;
    event.preventDefault();
    let dy = event.deltaY;
    if (event.deltaMode === 1) dy *= 16;
    else if (event.deltaMode === 2) dy *= state.vh;
    const factor = Math.exp(-dy * (event.ctrlKey ? 0.01 : 0.002));
    const p = pointOf(event);
    zoomTo(state.s * factor, p.x, p.y, false);
  }, { passive: false });

  /* ------------------------------------------------------------ buttons and keys */

  if (controls) {
    controls.addEventListener('click', (event) => {
      const button = event.target.closest('button');
      if (!button || !state.ready) return;
      if (button.classList.contains('zoom-in')) zoomBy(1.5, true);
      else if (button.classList.contains('zoom-out')) zoomBy(1 / 1.5, true);
      else if (button.classList.contains('zoom-fill')) toFill(true);
    });
  }

  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target instanceof Element ? event.target : null;
    if (target && target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]')) return;
    let handled = true;
    switch (event.key) {
      case 'ArrowLeft': handled = goPrevious(); break;
      case 'ArrowRight': handled = goNext(); break;
      case 'Escape': handled = setInfoOpen(false) || goBack(); break;
      case '+': case '=': if (state.ready) zoomBy(1.5, true); break;
      case '-': case '_': if (state.ready) zoomBy(1 / 1.5, true); break;
      case '0': if (state.ready) toFill(true); break;
      default: handled = false;
    }
    if (handled) event.preventDefault();
  });
})();

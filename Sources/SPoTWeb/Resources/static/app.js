/* SPoT — page behaviour on top of the server-rendered HTML (progressive enhancement: every
   page works without this file). Live list updates over server-sent events, refresh (button and
   pull-to-refresh), status progress and failure banner, hide with confirmation and undo, scroll
   position memory, section index, collapsible list, keyboard shortcuts.
   The DOM and event formats are those of the shared web contract. */
(() => {
  'use strict';

  const $ = (selector, root = document) => root.querySelector(selector);
  const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

  const body = document.body;
  const listPane = $('#list-pane');
  const listScroll = $('#list-scroll');
  const detailPane = $('#detail-pane');
  const listKey = listPane ? listPane.dataset.listKey || null : null;
  // A photo page (list pages may render an empty detail pane as a placeholder).
  const isPhotoPage = body.dataset.page === 'photo' || !!document.getElementById('viewer');
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

  /* ------------------------------------------------------------ helpers */

  // Server-rendered fragments (rows, headers) arrive already escaped: parse them inertly.
  function fragment(html) {
    const template = document.createElement('template');
    template.innerHTML = String(html || '').trim();
    return template.content.firstElementChild;
  }

  function readJSON(key) {
    try { return JSON.parse(sessionStorage.getItem(key) || 'null'); } catch (_) { return null; }
  }
  function writeJSON(key, value) {
    try { sessionStorage.setItem(key, JSON.stringify(value)); } catch (_) { /* storage full or off */ }
  }

  // Same-origin POST to the JSON API; rejects with the server's `{"error": …}` reason.
  async function postJSON(url) {
    let response;
    try {
      response = await fetch(url, { method: 'POST', credentials: 'same-origin', headers: { Accept: 'application/json' } });
    } catch (_) {
      throw new Error('Could not reach the server.');
    }
    let data = null;
    try { data = await response.json(); } catch (_) { /* not JSON */ }
    if (!response.ok) {
      throw new Error((data && typeof data.error === 'string' && data.error) || `The server answered ${response.status}.`);
    }
    return data || {};
  }

  /* ------------------------------------------------------------ thumbnails that fail */

  // A thumbnail the server could not fetch (Flickr down, the photo gone) shows a neutral
  // placeholder instead of the browser's broken-image icon. The row keeps its thumbnail's
  // address: a later render of the row (a live change, a reload) tries again.
  function markThumbnailMissing(img) {
    if (!(img instanceof HTMLImageElement) || !img.classList.contains('thumb') || !img.parentNode) return;
    // An <img> that failed keeps its broken-image icon whatever its attributes: a span takes
    // its place.
    const placeholder = document.createElement('span');
    placeholder.className = 'thumb thumb-missing';
    placeholder.setAttribute('role', 'img');
    placeholder.setAttribute('aria-label', 'Thumbnail unavailable');
    placeholder.dataset.src = img.getAttribute('src') || '';
    img.replaceWith(placeholder);
  }
  // `error` does not bubble: listen in the capture phase, for rows added later too.
  document.addEventListener('error', (event) => markThumbnailMissing(event.target), true);
  // Images that failed before this script ran.
  $$('img.thumb').forEach((img) => { if (img.complete && img.getAttribute('src') && img.naturalWidth === 0) markThumbnailMissing(img); });

  /* ------------------------------------------------------------ banner and toast */

  const bannerEl = $('#banner');
  const banner = {
    show(message, kind) {
      if (!bannerEl) return;
      const text = $('.banner-message', bannerEl);
      if (text) text.textContent = message;   // untrusted text: never innerHTML
      bannerEl.dataset.kind = kind || 'error';
      bannerEl.hidden = false;
    },
    hide() { if (bannerEl) bannerEl.hidden = true; },
    kind() { return bannerEl && !bannerEl.hidden ? bannerEl.dataset.kind || 'refresh' : null; },
  };
  if (bannerEl) {
    // A banner the server rendered visible is about the last refresh.
    if (!bannerEl.hidden && !bannerEl.dataset.kind) bannerEl.dataset.kind = 'refresh';
    const dismiss = $('.banner-dismiss', bannerEl);
    if (dismiss) dismiss.addEventListener('click', () => banner.hide());
  }

  const toastEl = $('#toast');
  let toastTimer = 0;
  let toastAction = null;
  function showToast(message, actionLabel, onAction, ms = 5000) {
    if (!toastEl) return;
    clearTimeout(toastTimer);
    $('.toast-message', toastEl).textContent = message;
    const button = $('.toast-action', toastEl);
    if (button) {
      button.hidden = !onAction;
      if (actionLabel) button.textContent = actionLabel;
    }
    toastAction = onAction || null;
    toastEl.hidden = false;
    toastTimer = setTimeout(hideToast, ms);
  }
  function hideToast() {
    clearTimeout(toastTimer);
    toastAction = null;
    if (toastEl) toastEl.hidden = true;
  }
  if (toastEl) {
    const button = $('.toast-action', toastEl);
    if (button) button.addEventListener('click', () => { const action = toastAction; hideToast(); if (action) action(); });
  }

  /* ------------------------------------------------------------ refresh status */

  const progressEl = $('#refresh-progress');
  const refreshButton = $('#refresh-button');
  const pullIndicator = listScroll ? $('.pull-indicator', listScroll) : null;
  let lastStatus = null;

  function applyStatus(status) {
    if (!status || typeof status !== 'object') return;
    const running = !!status.isRunning;
    if (progressEl) {
      progressEl.hidden = !running;
      const bar = $('progress', progressEl);
      const label = $('.progress-label', progressEl);
      const total = Number(status.pagesTotal) || 0;
      if (bar) {
        // No page count yet: an indeterminate bar rather than a stuck one at 0.
        if (total > 0) bar.value = Math.min(1, Math.max(0, Number(status.fractionDone) || 0));
        else bar.removeAttribute('value');
      }
      if (label) label.textContent = total > 0 ? `Refreshing… ${Number(status.pagesDone) || 0} of ${total}` : 'Refreshing…';
    }
    if (refreshButton) {
      refreshButton.disabled = running;
      refreshButton.setAttribute('aria-busy', String(running));
    }
    // A refresh just finished: report its failure, or clear an old failure after a success.
    const finished = lastStatus && !running &&
      (lastStatus.isRunning || (Number(status.completedRefreshes) || 0) > (Number(lastStatus.completedRefreshes) || 0));
    if (finished) {
      if (status.lastError) banner.show(`Refresh failed: ${status.lastError}`, 'refresh');
      else if (banner.kind() === 'refresh') banner.hide();
    }
    if (!running) stopPullRefreshing();
    applyDatabase(status.database);
    lastStatus = status;
  }

  /* The database's state: while it does not answer, the page says so and since when (what it
     shows was loaded before); the marker goes when it answers again. */
  const offlineEl = $('#offline');
  function applyDatabase(database) {
    if (!offlineEl || !database || typeof database !== 'object') return;
    if (database.isOnline !== false) { offlineEl.hidden = true; return; }
    const since = database.offlineSince ? new Date(database.offlineSince) : null;
    const time = since && !isNaN(since) ? ` since ${since.toLocaleTimeString()}` : '';
    const reason = typeof database.reason === 'string' && database.reason ? database.reason : 'it does not answer';
    const text = $('.offline-message', offlineEl);
    if (text) text.textContent = `Database offline${time}: ${reason}. Showing what was loaded before.`;
    offlineEl.hidden = false;
  }

  async function startRefresh(fromPull) {
    if (fromPull && pullIndicator) pullIndicator.classList.add('is-refreshing');
    if (refreshButton) refreshButton.disabled = true;
    try {
      const data = await postJSON('/api/refresh');
      // The event stream is the source of truth (its events are in order); the answer only
      // helps when it already says "running". A "not running" answer may predate the start.
      if (data.status && data.status.isRunning && !(lastStatus && lastStatus.isRunning)) applyStatus(data.status);
      else if (!(lastStatus && lastStatus.isRunning)) {
        if (refreshButton) refreshButton.disabled = false;
        stopPullRefreshing();
      }
    } catch (error) {
      banner.show(error.message, 'error');
      if (refreshButton) refreshButton.disabled = false;
      stopPullRefreshing();
    }
  }

  function stopPullRefreshing() {
    if (pullIndicator) pullIndicator.classList.remove('is-refreshing');
  }

  const refreshForm = $('form.refresh');
  if (refreshForm) {
    refreshForm.addEventListener('submit', (event) => { event.preventDefault(); startRefresh(false); });
  }

  /* ------------------------------------------------------------ scrolling helpers */

  // The element that scrolls the list: #list-scroll on split layouts, else the window (null).
  function listScroller() {
    if (listScroll) {
      const overflow = getComputedStyle(listScroll).overflowY;
      if (overflow === 'auto' || overflow === 'scroll') return listScroll;
    }
    return null;
  }
  function scrollTopOf(scroller) { return scroller ? scroller.scrollTop : window.scrollY; }
  function viewTopOf(scroller) { return scroller ? scroller.getBoundingClientRect().top : 0; }
  function scrollByY(scroller, dy) {
    if (!dy) return;
    if (scroller) scroller.scrollTop += dy; else window.scrollBy(0, dy);
  }
  // Whether the list is on screen at all (on phones the photo page hides it).
  function listVisible() { return !!(listPane && listPane.getClientRects().length); }

  const sectionsEl = listPane ? $('ol.sections', listPane) : null;
  const liveSections = () => (sectionsEl ? $$(':scope > li.section:not(.section-leaving)', sectionsEl) : []);
  function rowsListOf(section) {
    let ul = $(':scope > ul.rows', section);
    if (!ul) {
      ul = document.createElement('ul');
      ul.className = 'rows';
      section.append(ul);
    }
    return ul;
  }
  const liveRowsOf = (section) => $$(':scope > ul.rows > li.row:not(.row-leaving)', section);
  const allLiveRows = () => (sectionsEl ? $$(':scope > li.section:not(.section-leaving) > ul.rows > li.row:not(.row-leaving)', sectionsEl) : []);
  function rowById(id) {
    if (!sectionsEl || id == null) return null;
    return $(`li.section:not(.section-leaving) > ul.rows > li.row:not(.row-leaving)[data-id="${CSS.escape(String(id))}"]`, sectionsEl);
  }

  // The first rows on screen and where they are, to keep them still across DOM changes.
  function captureAnchor() {
    if (!sectionsEl || !listVisible()) return null;
    const scroller = listScroller();
    if (scrollTopOf(scroller) <= 0) return null;   // at the top: let new rows appear above
    const top = viewTopOf(scroller);
    const items = [];
    for (const row of allLiveRows()) {
      const rect = row.getBoundingClientRect();
      if (rect.bottom <= top) continue;
      items.push({ id: row.dataset.id, top: rect.top });
      if (items.length >= 8) break;
    }
    return items.length ? { scroller, items } : null;
  }
  // `skip`: ids of rows that moved elsewhere — the rows around them keep still instead.
  function restoreAnchor(anchor, skip) {
    if (!anchor) return;
    for (const item of anchor.items) {
      if (skip && skip.has(String(item.id))) continue;
      const row = rowById(item.id);
      if (row) { scrollByY(anchor.scroller, row.getBoundingClientRect().top - item.top); return; }
    }
  }

  /* ------------------------------------------------------------ scroll position memory */

  const scrollKey = listKey ? `scroll:${listKey}` : null;

  function saveScroll() {
    if (!scrollKey || !listVisible()) return;
    const scroller = listScroller();
    // On a photo page the window scroll belongs to the photo, not to the list.
    if (!scroller && isPhotoPage) return;
    const top = viewTopOf(scroller);
    const first = allLiveRows().find((row) => row.getBoundingClientRect().bottom > top);
    writeJSON(scrollKey, {
      y: scrollTopOf(scroller),
      id: first ? first.dataset.id : null,
      offset: first ? first.getBoundingClientRect().top - top : 0,
    });
  }

  function restoreScroll() {
    if (!scrollKey || !listVisible()) return;
    const saved = readJSON(scrollKey);
    const scroller = listScroller();
    if (saved && typeof saved === 'object') {
      const row = saved.id != null ? rowById(saved.id) : null;
      if (scroller) scroller.scrollTop = Number(saved.y) || 0; else window.scrollTo(0, Number(saved.y) || 0);
      // Prefer the row it was on (the layout may differ, e.g. after a rotation).
      if (row) scrollByY(scroller, row.getBoundingClientRect().top - viewTopOf(scroller) - (Number(saved.offset) || 0));
    }
    revealCurrentRow();
  }

  // Photo page: the list pane shows the current row.
  function revealCurrentRow() {
    const current = currentRowId != null ? rowById(currentRowId) : null;
    const scroller = listScroller();
    if (!current || !scroller) return;
    const view = scroller.getBoundingClientRect();
    const rect = current.getBoundingClientRect();
    const header = $('.section-header', current.closest('li.section'));
    const headerHeight = header ? header.offsetHeight : 0;
    if (rect.top < view.top + headerHeight || rect.bottom > view.bottom) {
      scrollByY(scroller, rect.top - view.top - (view.height - rect.height) / 2);
    }
  }

  /* ------------------------------------------------------------ section index */

  // Index titles of the server-rendered sections, from the rendered index (the DOM has no field).
  const indexTitles = new Map();
  function indexNav() { return listPane ? $(':scope > nav.section-index', listPane) : null; }
  (function learnIndexTitles() {
    const nav = indexNav();
    if (nav) for (const link of $$('a', nav)) indexTitles.set(decodeURIComponent((link.getAttribute('href') || '').slice(1)), link.textContent);
    for (const section of liveSections()) {
      const anchor = sectionAnchor(section);
      if (!section.dataset.indexTitle && anchor && indexTitles.has(anchor)) section.dataset.indexTitle = indexTitles.get(anchor);
    }
  })();

  function sectionAnchor(section) {
    const header = $(':scope > .section-header', section);
    return section.dataset.anchor || (header && header.id) || '';
  }

  function updateIndex() {
    if (!listPane) return;
    const entries = [];
    const seen = new Set();
    for (const section of liveSections()) {
      if (!$(':scope > .section-header', section)) continue;
      const anchor = sectionAnchor(section);
      let title = section.dataset.indexTitle;
      // A server-rendered section missing from the rendered index (its title repeats an earlier
      // one): guess its title from its name, on lists that have an index at all.
      if (title === undefined && indexTitles.size) {
        const letter = (section.dataset.name || '').normalize('NFD').replace(/\p{M}/gu, '').charAt(0).toUpperCase();
        title = /^[A-Z]$/.test(letter) ? letter : '#';
      }
      if (!title || !anchor || seen.has(title)) continue;
      seen.add(title);
      entries.push({ title, anchor });
    }
    let nav = indexNav();
    const signature = entries.map((entry) => `${entry.anchor}\u0000${entry.title}`).join('\u0001');
    if (nav && nav.dataset.signature === signature) {
      fitIndex();
      return;
    }
    if (!nav) {
      if (!entries.length) return;
      nav = document.createElement('nav');
      nav.className = 'section-index';
      nav.setAttribute('aria-label', 'Section index');
      listPane.append(nav);
      bindIndex(nav);
    }
    nav.dataset.signature = signature;
    nav.replaceChildren(...entries.map((entry) => {
      const link = document.createElement('a');
      link.href = `#${entry.anchor}`;
      link.textContent = entry.title;
      return link;
    }));
    nav.hidden = entries.length === 0;
    fitIndex();
  }

  // Not enough height for every letter: show every other one as a dot (iOS does the same).
  // A list that is on screen whole has nowhere to jump to: its index is not shown (as iOS's
  // sectionIndexMinimumDisplayRowCount), rather than float below a few rows.
  function fitIndex() {
    const nav = indexNav();
    if (!nav || nav.hidden) return;
    const scroller = $('.list-scroll', listPane);
    if (scroller) {
      const overflows = scroller.scrollHeight > scroller.clientHeight + 1
        || scroller.getBoundingClientRect().bottom > window.innerHeight + 1;
      nav.classList.toggle('is-unneeded', !overflows);
    }
    nav.classList.remove('is-compact');
    const first = nav.firstElementChild;
    if (first && first.getBoundingClientRect().height < 12) nav.classList.add('is-compact');
  }

  // Scroll a section so its header sits at the top of the scroll area.
  function jumpToSection(anchor, focus) {
    const header = document.getElementById(anchor);
    const section = header ? header.closest('li.section') : null;
    if (!section) return;
    const scroller = listScroller();
    scrollByY(scroller, section.getBoundingClientRect().top - viewTopOf(scroller));
    if (focus) {
      header.tabIndex = -1;
      header.focus({ preventScroll: true });
    }
  }

  function bindIndex(nav) {
    const anchorOf = (link) => decodeURIComponent((link.getAttribute('href') || '').replace(/^#/, ''));
    nav.addEventListener('click', (event) => {
      const link = event.target.closest('a');
      if (!link) return;
      event.preventDefault();
      jumpToSection(anchorOf(link), event.detail === 0);   // detail 0: keyboard activation
    });
    // Scrubbing: slide a finger (or the mouse, button down) along the letters.
    let scrubbing = null;
    nav.addEventListener('pointerdown', (event) => {
      if (event.pointerType === 'mouse') return;   // mouse users click
      scrubbing = event.pointerId;
      try { nav.setPointerCapture(event.pointerId); } catch (_) { /* ignore */ }
      scrubTo(event);
    });
    nav.addEventListener('pointermove', (event) => { if (event.pointerId === scrubbing) scrubTo(event); });
    const end = (event) => { if (event.pointerId === scrubbing) scrubbing = null; };
    nav.addEventListener('pointerup', end);
    nav.addEventListener('pointercancel', end);
    let lastScrub = null;
    function scrubTo(event) {
      const links = $$('a', nav);
      let best = null;
      for (const link of links) {
        const rect = link.getBoundingClientRect();
        if (event.clientY >= rect.top && event.clientY < rect.bottom) { best = link; break; }
      }
      if (!best && links.length) best = event.clientY < links[0].getBoundingClientRect().top ? links[0] : links[links.length - 1];
      if (best && best !== lastScrub) { lastScrub = best; jumpToSection(anchorOf(best), false); }
    }
  }
  if (indexNav()) bindIndex(indexNav());

  /* ------------------------------------------------------------ live list */

  const liveState = {
    version: listPane ? Number(listPane.dataset.version) : NaN,
    instance: listPane ? listPane.dataset.instance || null : null,
  };
  // The row shown in the detail pane: aria-current on its row, or data-current on the pane.
  const currentRow = listPane ? $('li.row[aria-current="true"]', listPane) : null;
  const currentRowId = (() => {
    if (currentRow) return currentRow.dataset.id;
    const id = listPane ? listPane.dataset.current : null;
    if (!id) return null;
    // Search lists prefix row ids with their kind ("photo:ID") while data-current is the bare id.
    return rowById(id) || !rowById(`photo:${id}`) ? id : `photo:${id}`;
  })();

  function makeRow(html, id) {
    const row = fragment(html);
    if (!row || !row.matches('li.row')) throw new Error(`row ${id}: not an li.row`);
    if (id != null && !row.dataset.id) row.dataset.id = String(id);
    return row;
  }

  // A section header's id, as the server writes it: `section-` and the name with every byte
  // outside A-Z a-z 0-9 written as `_` and its hex value.
  function anchorFor(name) {
    let anchor = 'section-';
    for (const byte of new TextEncoder().encode(name)) {
      const alnum = (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57);
      anchor += alnum ? String.fromCharCode(byte) : `_${byte.toString(16).toUpperCase()}`;
    }
    return anchor;
  }

  // A section of the list's own format ({name, indexTitle}); named sections get a header.
  function makeSection(section) {
    const li = document.createElement('li');
    const name = String(section.name || '');
    li.className = 'section';
    li.dataset.name = name;
    li.dataset.indexTitle = section.indexTitle || '';   // known, even when empty
    if (name) {
      const header = document.createElement('h2');
      header.className = 'section-header';
      header.id = li.dataset.anchor = anchorFor(name);
      header.textContent = name;   // untrusted text: never innerHTML
      li.append(header);
    }
    const ul = document.createElement('ul');
    ul.className = 'rows';
    li.append(ul);
    return li;
  }

  // Insert `element` so that it becomes live item `index` of `items` (throws when out of range).
  function insertAt(parent, items, index, element) {
    if (!(index >= 0 && index <= items.length)) throw new RangeError(`insert at ${index} of ${items.length}`);
    if (index < items.length) parent.insertBefore(element, items[index]);
    else if (items.length) items[items.length - 1].after(element);
    else parent.prepend(element);
  }

  function fadeIn(row) {
    row.classList.add('row-enter');
    setTimeout(() => row.classList.remove('row-enter'), 350);
  }

  // Removed at once from the model (.row-leaving is skipped by every query), from the DOM after the fade.
  function fadeOut(element, leavingClass) {
    for (const withId of [element, ...$$('[id]', element)]) withId.removeAttribute('id');   // anchors must stay unique
    if (reducedMotion.matches) { element.remove(); return; }
    element.classList.add(leavingClass);
    setTimeout(() => {
      const anchor = captureAnchor();
      element.remove();
      restoreAnchor(anchor);
    }, 260);
  }

  // Keyboard focus follows a row that is replaced.
  function keepFocus(oldRow, newRow) {
    if (oldRow.contains(document.activeElement)) {
      const link = $('.row-link', newRow) || newRow;
      link.focus({ preventScroll: true });
    }
  }

  function afterListChange() {
    if (currentRowId != null) {
      for (const row of $$('li.row[aria-current]', sectionsEl)) if (row.dataset.id !== currentRowId) row.removeAttribute('aria-current');
      const current = rowById(currentRowId);
      if (current) current.setAttribute('aria-current', 'true');
    }
    const empty = $('p.empty', listPane);
    if (empty) empty.hidden = allLiveRows().length > 0;
    updateIndex();
  }

  function rebuild(sections) {
    if (!sectionsEl || !Array.isArray(sections)) return;
    const anchor = captureAnchor();
    const focusedId = document.activeElement && document.activeElement.closest && sectionsEl.contains(document.activeElement)
      ? (document.activeElement.closest('li.row') || {}).dataset?.id : null;
    const built = sections.map((section) => {
      const li = makeSection(section);
      const ul = rowsListOf(li);
      for (const row of section.rows || []) ul.append(makeRow(row.html, row.id));
      return li;
    });
    sectionsEl.replaceChildren(...built);
    afterListChange();
    restoreAnchor(anchor);
    if (focusedId != null) {
      const row = rowById(focusedId);
      if (row) ($('.row-link', row) || row).focus({ preventScroll: true });
    }
  }

  // One change set, applied in UITableView's batch-update order (see the contract).
  function applyChange(change) {
    const anchor = captureAnchor();
    const position = (p) => ({ section: Number(p.section), row: Number(p.row) });
    const descending = (a, b) => b.section - a.section || b.row - a.row;
    const ascending = (a, b) => a.section - b.section || a.row - b.row;

    // (1) deleted rows and move sources, old positions, descending
    const oldSections = liveSections();
    const removals = [
      ...(change.deletedRows || []).map((p) => ({ ...position(p), moved: false })),
      ...(change.movedRows || []).map((m) => ({ ...position(m.from), moved: true })),
    ].sort(descending);
    for (const removal of removals) {
      const section = oldSections[removal.section];
      const row = section ? liveRowsOf(section)[removal.row] : null;
      if (!row) throw new RangeError(`no row at ${removal.section}.${removal.row}`);
      if (removal.moved) row.remove(); else fadeOut(row, 'row-leaving');
    }

    // (2) deleted sections, old indices, descending
    for (const index of [...(change.deletedSections || [])].map(Number).sort((a, b) => b - a)) {
      const section = oldSections[index];
      if (!section || section.classList.contains('section-leaving')) throw new RangeError(`no section ${index}`);
      for (const row of liveRowsOf(section)) row.classList.add('row-leaving');
      fadeOut(section, 'section-leaving');
    }

    // (3) inserted sections, new indices, ascending
    for (const inserted of [...(change.insertedSections || [])].sort((a, b) => a.index - b.index)) {
      insertAt(sectionsEl, liveSections(), Number(inserted.index), makeSection(inserted));
    }

    // (4) inserted rows and move destinations, new positions, ascending
    const insertions = [
      ...(change.insertedRows || []).map((r) => ({ ...position(r.position), id: r.row.id, html: r.row.html })),
      ...(change.movedRows || []).map((m) => ({ ...position(m.to), id: m.row.id, html: m.row.html })),
    ].sort(ascending);
    for (const insertion of insertions) {
      const section = liveSections()[insertion.section];
      if (!section) throw new RangeError(`no section ${insertion.section} for row ${insertion.id}`);
      const row = makeRow(insertion.html, insertion.id);
      insertAt(rowsListOf(section), liveRowsOf(section), insertion.row, row);
      fadeIn(row);
    }

    // (5) updated rows, at their new positions, checking the id
    for (const update of change.updatedRows || []) {
      const at = position(update.newPosition || update.position);
      const section = liveSections()[at.section];
      const old = section ? liveRowsOf(section)[at.row] : null;
      if (!old || old.dataset.id !== String(update.row.id)) throw new RangeError(`row ${update.row.id} is not at ${at.section}.${at.row}`);
      const row = makeRow(update.row.html, update.row.id);
      old.replaceWith(row);
      keepFocus(old, row);
      fadeIn(row);
    }

    afterListChange();
    restoreAnchor(anchor, new Set((change.movedRows || []).map((m) => String(m.row.id))));
  }

  let source = null;
  let retryTimer = 0;
  let retryDelay = 1000;

  function connect() {
    clearTimeout(retryTimer);
    if (source) source.close();
    const url = listPane && listPane.dataset.live ? listPane.dataset.live : '/events?list=status';
    let events;
    try { events = new EventSource(url); } catch (_) { scheduleReconnect(); return; }
    source = events;
    const guarded = (handler) => (event) => {
      if (events !== source) return;   // a stale connection
      let data;
      try { data = JSON.parse(event.data); } catch (_) { return; }
      handler(data);
    };
    events.addEventListener('open', () => { retryDelay = 1000; });
    events.addEventListener('snapshot', guarded(onSnapshot));
    events.addEventListener('change', guarded(onChange));
    events.addEventListener('status', guarded(applyStatus));
    events.addEventListener('error', () => {
      if (events !== source) return;
      // CONNECTING: the browser retries by itself, and the snapshot that follows resynchronises.
      // CLOSED (an HTTP error while the server restarts): retry ourselves, backing off.
      if (events.readyState === EventSource.CLOSED) scheduleReconnect();
    });
  }

  function scheduleReconnect() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 15000);
  }

  // Out of step: a fresh connection starts with a snapshot.
  function resync() {
    liveState.version = NaN;
    connect();
  }

  // The list's status line: why it may be behind the database, while it is.
  function showProblem(problem) {
    const line = listPane ? $('.list-status', listPane) : null;
    if (!line) return;
    line.textContent = typeof problem === 'string' ? problem : '';
    line.hidden = !line.textContent;
  }

  // {list, instance, snapshot: {version, sections: [{name, indexTitle, rows: [{id, html}]}], problem}}
  function onSnapshot(event) {
    const snapshot = event && event.snapshot;
    if (!listPane || !snapshot || !Array.isArray(snapshot.sections)) return;
    showProblem(snapshot.problem);
    if (event.instance === liveState.instance && snapshot.version === liveState.version) return;
    rebuild(snapshot.sections);
    liveState.instance = event.instance;
    liveState.version = snapshot.version;
  }

  // The list's change set, rows as {id, html}.
  function onChange(change) {
    if (!listPane || !change || typeof change.version !== 'number') return;
    if (change.version <= liveState.version) return;   // already applied
    if (change.version !== liveState.version + 1) { resync(); return; }
    try {
      if (change.reload) rebuild(change.reload); else applyChange(change);
      showProblem(change.problem);
      liveState.version = change.version;
    } catch (error) {
      console.warn('SPoT: a list change did not apply; resynchronising.', error);
      resync();
    }
  }

  if (typeof EventSource === 'function') {
    connect();
    // Leaving (or entering the back/forward cache): close; coming back: reconnect and resync.
    window.addEventListener('pagehide', () => { clearTimeout(retryTimer); if (source) { source.close(); source = null; } });
    window.addEventListener('pageshow', (event) => { if (event.persisted) connect(); });
  }

  /* ------------------------------------------------------------ pull to refresh (touch) */

  if (pullIndicator && ('ontouchstart' in window || navigator.maxTouchPoints > 0)) {
    const threshold = 70;
    let start = null;
    let pulling = false;
    let distance = 0;
    const area = listPane;   // the whole list, its title included
    const reset = () => {
      start = null; pulling = false; distance = 0;
      pullIndicator.classList.remove('is-pulling', 'is-ready');
      pullIndicator.style.removeProperty('--pull');
    };
    area.addEventListener('touchstart', (event) => {
      reset();
      if (event.touches.length !== 1 || pullIndicator.classList.contains('is-refreshing')) return;
      if (scrollTopOf(listScroller()) > 0) return;   // only when the list is at its top
      start = { x: event.touches[0].clientX, y: event.touches[0].clientY };
    }, { passive: true });
    area.addEventListener('touchmove', (event) => {
      if (!start || event.touches.length !== 1) return;
      const dx = event.touches[0].clientX - start.x;
      const dy = event.touches[0].clientY - start.y;
      if (!pulling) {
        if (dy > 8 && dy > Math.abs(dx) && scrollTopOf(listScroller()) <= 0) pulling = true;
        else if (dy < 0 || Math.abs(dx) > 8) { start = null; return; } else return;
      }
      distance = Math.max(0, dy);
      pullIndicator.classList.add('is-pulling');
      pullIndicator.classList.toggle('is-ready', distance >= threshold);
      // Resistance: the indicator grows slower than the finger moves.
      pullIndicator.style.setProperty('--pull', `${Math.round(Math.min(96, distance * 0.6))}px`);
    }, { passive: true });
    area.addEventListener('touchend', () => {
      const go = pulling && distance >= threshold;
      reset();
      if (go) startRefresh(true);
    });
    area.addEventListener('touchcancel', reset);
  }

  /* ------------------------------------------------------------ hide, with confirmation and undo */

  const UNDO_KEY = 'spot:undo-hide';
  const hideForm = $('form.hide-form');
  if (hideForm) {
    hideForm.addEventListener('submit', async (event) => {
      event.preventDefault();
      const match = new URL(hideForm.action, location.href).pathname.match(/^\/photos\/([^/]+)\/hide\/?$/);
      const id = hideForm.dataset.photoId || (match ? decodeURIComponent(match[1]) : null);
      if (!id) { hideForm.submit(); return; }
      const title = hideForm.dataset.title || ($('#photo-title') || {}).textContent || 'this photo';
      if (!window.confirm(`Hide “${title.trim()}”? It will no longer appear in any list.`)) return;
      const button = $('button', hideForm);
      if (button) button.disabled = true;
      try {
        await postJSON(`/api/photos/${encodeURIComponent(id)}/hide`);
      } catch (error) {
        banner.show(error.message, 'error');
        if (button) button.disabled = false;
        return;
      }
      // The toast is shown by the next page (navigation would drop it here).
      writeJSON(UNDO_KEY, { id, href: location.href, at: Date.now() });
      const next = detailPane && $('.detail-header a.next', detailPane);
      const back = detailPane && $('.detail-header a.back', detailPane);
      location.assign(next ? next.href : back ? back.href : '/');
    });
  }

  (function offerUndo() {
    const pending = readJSON(UNDO_KEY);
    if (!pending) return;
    try { sessionStorage.removeItem(UNDO_KEY); } catch (_) { /* ignore */ }
    if (typeof pending.id !== 'string' || !(Date.now() - Number(pending.at) < 10000)) return;
    showToast('Photo hidden.', 'Undo', async () => {
      try {
        await postJSON(`/api/photos/${encodeURIComponent(pending.id)}/unhide`);
        // Back to the photo that was hidden, if it was opened from this site.
        const href = typeof pending.href === 'string' ? new URL(pending.href, location.href) : null;
        if (href && href.origin === location.origin) location.assign(href.href);
        else showToast('Photo restored.', null, null, 3000);
      } catch (error) {
        banner.show(error.message, 'error');
      }
    }, 5000);
  })();

  /* ------------------------------------------------------------ collapsible list (photo page, split view) */

  const collapseButton = listPane && isPhotoPage ? $('.collapse-list') : null;
  if (collapseButton) {
    const portrait = window.matchMedia('(max-width: 900px) and (orientation: portrait)');
    const detailHeader = $('.detail-header', detailPane);
    const showButton = document.createElement('button');
    showButton.type = 'button';
    showButton.className = 'show-list';
    showButton.setAttribute('aria-label', 'Show list');
    if (!collapseButton.hasAttribute('aria-controls')) collapseButton.setAttribute('aria-controls', 'list-pane');
    showButton.setAttribute('aria-controls', collapseButton.getAttribute('aria-controls'));
    if (detailHeader) detailHeader.prepend(showButton);
    const prefKey = () => `spot:list-collapsed:${portrait.matches ? 'portrait' : 'landscape'}`;

    const setCollapsed = (collapsed, remember) => {
      const was = body.classList.contains('list-collapsed');
      body.classList.toggle('list-collapsed', collapsed);
      collapseButton.setAttribute('aria-expanded', String(!collapsed));
      collapseButton.setAttribute('aria-label', collapsed ? 'Show list' : 'Hide list');
      showButton.setAttribute('aria-expanded', String(!collapsed));
      if (remember) writeJSON(prefKey(), collapsed);
      if (was && !collapsed) restoreScroll();   // display:none lost the pane's scroll position
    };
    const preferred = () => { const saved = readJSON(prefKey()); return typeof saved === 'boolean' ? saved : portrait.matches; };
    setCollapsed(preferred(), false);
    collapseButton.addEventListener('click', () => {
      saveScroll();
      setCollapsed(true, true);
      showButton.focus();
    });
    showButton.addEventListener('click', () => { setCollapsed(false, true); collapseButton.focus(); });
    portrait.addEventListener('change', () => setCollapsed(preferred(), false));
  }

  /* ------------------------------------------------------------ keyboard */

  const searchInput = $('form.search input[type="search"], form.search input[name="q"]');
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target instanceof Element ? event.target : null;
    const typing = target && target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]');
    if (event.key === '/' && !typing && searchInput) {
      event.preventDefault();
      searchInput.focus();
      searchInput.select();
    } else if (event.key === 'Escape' && target === searchInput) {
      searchInput.blur();
    } else if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && target && target.matches('.row-link')) {
      // Up/down move between rows, like a table view.
      const links = allLiveRows().map((row) => $('.row-link', row)).filter(Boolean);
      const index = links.indexOf(target);
      const next = links[index + (event.key === 'ArrowDown' ? 1 : -1)];
      if (next) {
        event.preventDefault();
        next.focus();
        next.scrollIntoView({ block: 'nearest' });
      }
    }
  });

  /* ------------------------------------------------------------ start */

  document.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('.row-link, .back')) saveScroll();
  });
  window.addEventListener('pagehide', saveScroll);
  window.addEventListener('resize', fitIndex);
  if ('scrollRestoration' in history && scrollKey && !isPhotoPage) history.scrollRestoration = 'manual';
  if (currentRowId != null) afterListChange();   // mark the current row (aria-current)
  fitIndex();
  restoreScroll();
})();

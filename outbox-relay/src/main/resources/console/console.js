// The OnceOnly console's only script: admin actions and the replay dry run. Requests go to the
// console's own origin with the browser's login (its cached Basic credentials or session), never
// with credentials of their own, and carry X-OnceOnly-Console, which the relay requires of every
// console action and which a page of another site cannot send.
(function () {
  'use strict';

  function post(path, body) {
    var init = {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'X-OnceOnly-Console': '1', 'Accept': 'application/json' }
    };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    // The origin alone: a page opened with credentials in its URL must not pass them on.
    return fetch(new URL(path, window.location.origin), init).then(function (response) {
      return response.json().then(
        function (data) { return { ok: response.ok, data: data }; },
        function () { return { ok: false, data: { detail: 'HTTP ' + response.status } }; });
    });
  }

  function say(element, text, failed) {
    element.textContent = text;
    element.classList.toggle('failed', !!failed);
  }

  // Retry and cancel on a row's page; cancel asks for a second click.
  document.querySelectorAll('button[data-action]').forEach(function (button) {
    var armed = false;
    button.addEventListener('click', function () {
      var action = button.dataset.action;
      var row = button.dataset.row;
      var result = document.getElementById('action-result');
      if (action === 'cancel' && !armed) {
        armed = true;
        button.textContent = 'Click again to cancel row ' + row + ' for good';
        return;
      }
      button.disabled = true;
      post('/console/actions/rows/' + encodeURIComponent(row) + '/' + action).then(function (r) {
        if (r.ok) {
          say(result, 'Row ' + row + ' is now ' + r.data.status + '.');
          window.setTimeout(function () { window.location.reload(); }, 500);
        } else {
          say(result, r.data.detail || 'refused', true);
          button.disabled = false;
        }
      });
    });
  });

  // A row still on its way: look again until it settles.
  var row = document.getElementById('row');
  if (row && row.dataset.refreshSeconds) {
    window.setTimeout(function () { window.location.reload(); },
      1000 * Number(row.dataset.refreshSeconds));
  }

  // Replay: a dry run first; the confirm button replays exactly the rows the dry run listed.
  var form = document.getElementById('replay-form');
  if (form) {
    var preview = document.getElementById('replay-preview');
    var summary = document.getElementById('replay-summary');
    var confirm = document.getElementById('replay-confirm');
    var result = document.getElementById('replay-result');
    var pending = null;

    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var filter = {};
      new FormData(form).forEach(function (value, name) {
        if (String(value).trim() !== '') {
          filter[name] = name === 'limit' ? Number(value) : String(value).trim();
        }
      });
      filter.dryRun = true;
      preview.hidden = true;
      pending = null;
      say(result, '');
      post('/console/actions/replay', filter).then(function (r) {
        if (!r.ok) {
          say(result, r.data.detail || 'refused', true);
          return;
        }
        var d = r.data;
        var shown = d.ids.slice(0, 20).join(', ') + (d.ids.length > 20 ? ', …' : '');
        say(summary, d.matched + ' dead rows match; ' + d.selected + ' would be replayed' +
          (d.selected > 0 ? ' (rows ' + shown + '), due until ' + d.scheduledUntil : '') + '.');
        if (d.selected > 0) {
          // The confirm names the rows the dry run listed: a row that died since, or one that
          // moved up into the limit, is never replayed without being seen first.
          pending = Object.assign({}, filter, { dryRun: false, limit: d.ids.length, ids: d.ids });
          confirm.textContent = 'Replay these ' + d.selected + ' rows';
          confirm.hidden = false;
        } else {
          confirm.hidden = true;
        }
        preview.hidden = false;
      });
    });

    confirm.addEventListener('click', function () {
      if (!pending) {
        return;
      }
      confirm.disabled = true;
      post('/console/actions/replay', pending).then(function (r) {
        confirm.disabled = false;
        if (r.ok) {
          var listed = pending.ids.length;
          preview.hidden = true;
          pending = null;
          say(result, 'Replayed ' + r.data.changed + ' rows' +
            (r.data.changed < listed ? ' of the ' + listed + ' the dry run listed (the others are no longer dead)' : '') +
            (r.data.changed > 0 ? '; the last is due at ' + r.data.scheduledUntil : '') + '.');
        } else {
          say(result, r.data.detail || 'refused', true);
        }
      });
    });
  }
})();

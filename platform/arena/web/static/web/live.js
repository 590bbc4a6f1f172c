/* The live part of a season page: fetched again every few seconds while the page is visible and swapped in,
 * so the queue and the latest results move without a reload. Any failure keeps what is shown and tries later. */
(function () {
  "use strict";
  var INTERVAL_MS = 5000;
  var section = document.querySelector("[data-live-url]");
  if (!section) return;
  var url = section.getAttribute("data-live-url");
  function refresh() {
    if (document.hidden) return;
    fetch(url, { headers: { "X-Requested-With": "fetch" }, credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html !== null) section.innerHTML = html; })
      .catch(function () { /* the server is restarting or gone: keep the last view */ });
  }
  window.setInterval(refresh, INTERVAL_MS);
})();

// Redrive dashboard: progressive enhancement only. Every page works without this file; with it,
// charts are drawn (uPlot) from the JSON in each chart's data-series attribute, and a page with a
// live bar refreshes its data regions (htmx). No inline script anywhere (the
// Content-Security-Policy forbids it), so this file is the only code that runs.
(function () {
  "use strict";

  var AXIS_FONT = "12px system-ui, -apple-system, sans-serif";

  function pad(n) {
    return n < 10 ? "0" + n : String(n);
  }

  // The time axis's labels: 24-hour "10:40" in the browser's time zone, narrower than uPlot's
  // default "10:40am" and the same width at every hour.
  function timeLabels(u, splits) {
    return splits.map(function (t) {
      var d = new Date(t * 1000);
      return pad(d.getHours()) + ":" + pad(d.getMinutes());
    });
  }

  // uPlot spaces ticks by a minimum distance but never measures its x labels: make that distance
  // the widest label as this browser draws it, plus a gap, so two labels never meet at any width.
  function timeSpace() {
    var ctx = document.createElement("canvas").getContext("2d");
    if (!ctx) {
      return 80;
    }
    ctx.font = AXIS_FONT;
    return Math.ceil(ctx.measureText("88:88").width) + 16;
  }

  function drawCharts() {
    if (typeof uPlot === "undefined") {
      return;
    }
    var space = timeSpace();
    document.querySelectorAll("[data-series]:not([data-drawn])").forEach(function (el) {
      var spec;
      try {
        spec = JSON.parse(el.getAttribute("data-series"));
      } catch (e) {
        el.textContent = "chart data unreadable";
        return;
      }
      var colors = ["#1a5fb4", "#1e7b34", "#b26b00", "#b3261e", "#8a2be2"];
      var series = [{}];
      spec.series.forEach(function (s, i) {
        series.push({ label: s.label, stroke: colors[i % colors.length], width: 2 });
      });
      var data = [spec.x].concat(spec.series.map(function (s) { return s.values; }));
      var width = Math.max(280, el.clientWidth - 16);
      el.textContent = "";
      el.setAttribute("data-drawn", "true");
      new uPlot({ title: spec.title, width: width, height: 200, series: series,
        axes: [{ font: AXIS_FONT, space: space, values: timeLabels },
          { font: AXIS_FONT, size: 50 }] }, data, el);
    });
  }

  // Live refresh (docs/dashboard.md, "Live refresh"). The live bar asks for its own page every
  // 5 s (hx-trigger) and swaps only the regions it names (hx-select-oob), never a form. htmx's
  // trigger filters need eval, which the CSP forbids, so the pause is kept here: a request is
  // cancelled while the tab is hidden or the visitor paused (remembered in localStorage, so it
  // holds on every page until resumed).
  var PAUSED = "redrive.live.paused";

  function clock(d) {
    return pad(d.getHours()) + ":" + pad(d.getMinutes()) + ":" + pad(d.getSeconds());
  }

  function paused() {
    try {
      return window.localStorage.getItem(PAUSED) === "1";
    } catch (e) {
      return false;
    }
  }

  function setPaused(on) {
    try {
      if (on) {
        window.localStorage.setItem(PAUSED, "1");
      } else {
        window.localStorage.removeItem(PAUSED);
      }
    } catch (e) {
      // no storage (private mode): the pause lasts as long as the page
    }
  }

  function setupLive() {
    var bar = document.getElementById("live-bar");
    if (!bar || typeof htmx === "undefined") {
      return;
    }
    var state = document.getElementById("live-state");
    var updated = document.getElementById("live-updated");
    var toggle = document.getElementById("live-toggle");
    var failed = null;
    var pausedHere = paused();
    function show() {
      var hidden = document.visibilityState !== "visible";
      var mode = pausedHere ? "paused" : hidden ? "hidden" : failed ? "error" : "on";
      bar.setAttribute("data-live", mode);
      state.textContent = pausedHere ? "paused" : failed ? "not updated (" + failed + ")" : "live";
      toggle.textContent = pausedHere ? "Resume" : "Pause";
      toggle.setAttribute("aria-pressed", pausedHere ? "true" : "false");
    }
    function stamp() {
      updated.textContent = clock(new Date());
      updated.setAttribute("datetime", new Date().toISOString());
    }
    // The page was made by the server a moment ago: its time, in this browser's zone.
    var made = new Date(updated.getAttribute("datetime"));
    if (!isNaN(made.getTime())) {
      updated.textContent = clock(made);
    }
    bar.hidden = false;
    show();
    bar.addEventListener("htmx:beforeRequest", function (e) {
      if (e.target === bar && (pausedHere || document.visibilityState !== "visible")) {
        e.preventDefault();
      }
    });
    bar.addEventListener("htmx:afterRequest", function (e) {
      if (e.target !== bar) {
        return;
      }
      var xhr = e.detail.xhr;
      if (e.detail.successful) {
        failed = null;
        stamp();
        drawCharts();
      } else {
        failed = xhr && xhr.status ? "HTTP " + xhr.status : "no answer";
      }
      show();
    });
    toggle.addEventListener("click", function () {
      pausedHere = !pausedHere;
      setPaused(pausedHere);
      show();
      if (!pausedHere) {
        htmx.trigger(bar, "live-now");
      }
    });
    document.addEventListener("visibilitychange", function () {
      show();
      if (!pausedHere && document.visibilityState === "visible") {
        htmx.trigger(bar, "live-now"); // back to the tab: fresh data at once, not in up to 5 s
      }
    });
    // A swapped region keeps what the visitor opened in it (a stack trace's <details>).
    document.body.addEventListener("htmx:oobBeforeSwap", function (e) {
      var before = e.detail.target.querySelectorAll("details");
      var after = e.detail.fragment.querySelectorAll("details");
      for (var i = 0; i < before.length && i < after.length; i++) {
        if (before[i].open) {
          after[i].setAttribute("open", "");
        }
      }
    });
  }

  function start() {
    drawCharts();
    setupLive();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

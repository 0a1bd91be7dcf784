// Redrive dashboard: progressive enhancement only. Every page works without this file; with it,
// charts are drawn (uPlot) from the JSON in each chart's data-series attribute. No inline script
// anywhere (the Content-Security-Policy forbids it), so this file is the only code that runs.
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
    document.querySelectorAll("[data-series]").forEach(function (el) {
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

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", drawCharts);
  } else {
    drawCharts();
  }
})();

// Redrive dashboard: progressive enhancement only. Every page works without this file; with it,
// charts are drawn (uPlot) from the JSON in each chart's data-series attribute. No inline script
// anywhere (the Content-Security-Policy forbids it), so this file is the only code that runs.
(function () {
  "use strict";

  function drawCharts() {
    if (typeof uPlot === "undefined") {
      return;
    }
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
        axes: [{}, { size: 50 }] }, data, el);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", drawCharts);
  } else {
    drawCharts();
  }
})();

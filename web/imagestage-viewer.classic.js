// ImageStage's viewer for pages written for Pannellum: a classic script (no `type=module`)
// that offers `pannellum.viewer(id, config)`. Swap Pannellum's two tags for
//   <link rel="stylesheet" href="imagestage-viewer.css">
//   <script src="imagestage-viewer.classic.js"></script>
// and the page's own `pannellum.viewer(...)` calls work. The viewer itself is the ES module
// beside this file, asked for as this script runs; calls made before it arrives are queued.
(function () {
  'use strict';
  var here = document.currentScript && document.currentScript.src;
  var moduleURL = new URL('imagestage-viewer.js', here || location.href).href;
  var loading = null;

  function load() {
    if (!loading) loading = import(moduleURL);
    return loading;
  }

  // Start-up: the module (and so its imports) and the wasm are asked for now, while the page
  // still parses, not when its first viewer is made; fetched once either way.
  var wasm = document.createElement('link');
  wasm.rel = 'preload';
  wasm.as = 'fetch';
  wasm.crossOrigin = 'anonymous';
  wasm.href = new URL('imagestage-viewer.wasm', moduleURL).href;
  document.head.appendChild(wasm);
  load().catch(function () {});

  // A one-panorama config that loads at once: its image is asked for before the module is
  // there (a hint the module takes once, as from viewer.html; a miss costs one request).
  function prefetch(config) {
    if (!config || typeof config !== 'object' || config.scenes || !config.autoLoad || config.basePath ||
      typeof config.panorama !== 'string' || window.imagestagePrefetch) return;
    var url = new URL(config.panorama, location.href).href;
    var credentials = config.crossOrigin === 'use-credentials' ? 'include' : 'same-origin';
    window.imagestagePrefetch = { url: url, response: fetch(url, { credentials: credentials }) };
    window.imagestagePrefetch.response.catch(function () {});
  }

  // Getters answer once the module is there; until then what the config says (or undefined).
  var GETTERS = /^(is|get|mouseEventToCoords$|removeScene$|removeHotSpot$)/;

  function viewer(container, config) {
    var real = null;
    var queue = [];
    prefetch(config);
    var proxy = new Proxy({}, {
      get: function (target, name) {
        if (name === 'then') return undefined;
        return function () {
          var args = arguments;
          if (real) return real[name].apply(real, args);
          if (GETTERS.test(String(name))) {
            if (name === 'isLoaded' || name === 'isOrientationActive') return false;
            if (name === 'getContainer') return typeof container === 'string' ? document.getElementById(container) : container;
            if (name === 'getConfig') return config;
            return undefined;
          }
          queue.push([name, args]);
          return proxy;
        };
      },
    });
    load().then(function (m) {
      real = new m.Viewer(container, config || {});
      for (var i = 0; i < queue.length; i++) real[queue[i][0]].apply(real, queue[i][1]);
      queue = [];
    }, function (e) { console.error('ImageStage viewer could not load its module:', e); });
    return proxy;
  }

  window.pannellum = { viewer: viewer };
  window.imagestageViewer = { viewer: viewer, load: load };
})();

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
  // still parses, not when its first viewer is made; fetched once either way. The wasm is
  // the one the module will take without a `renderer` option: the CPU renderer's where
  // WebGL2 is missing or is a software one, the lean one otherwise. WebGL2 is probed as
  // panorama-gl.js's probeWebGL2 does, once: the module takes this answer (imagestageGL).
  var gl = window.imagestageGL || (window.imagestageGL = (function () {
    try {
      var c = document.createElement('canvas').getContext('webgl2');
      if (!c) return { webgl2: false, software: false };
      var info = c.getExtension('WEBGL_debug_renderer_info');
      var software = /swiftshader|llvmpipe|software/i.test(info ? String(c.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '');
      var lose = c.getExtension('WEBGL_lose_context');
      if (lose) lose.loseContext();
      return { webgl2: true, software: software };
    } catch (e) {
      return { webgl2: false, software: false };
    }
  })());
  var wasm = document.createElement('link');
  wasm.rel = 'preload';
  wasm.as = 'fetch';
  wasm.crossOrigin = 'anonymous';
  wasm.href = new URL(gl.webgl2 && !gl.software ? 'imagestage-viewer.wasm' : 'imagestage-viewer-cpu.wasm', moduleURL).href;
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

  // Getters answer once the viewer runs; until then what Pannellum answers before its
  // panorama loads: the config's own values, else Pannellum's defaults.
  var GETTERS = /^(is|get|mouseEventToCoords$|removeScene$|removeHotSpot$)/;

  function before(config, container) {
    var c = config || {};
    var scenes = c.scenes && typeof c.scenes === 'object' ? c.scenes : null;
    var first = scenes ? (c['default'] && c['default'].firstScene) || c.firstScene || Object.keys(scenes)[0] : undefined;
    var s = Object.assign({}, c['default'], c, scenes && scenes[first]);
    function n(key, fallback) {
      var v = s[key] == null || s[key] === '' ? NaN : Number(s[key]);
      return isFinite(v) ? v : fallback;
    }
    return {
      isLoaded: false, isOrientationActive: false, isOrientationSupported: false, getLevelHorizon: false,
      getPitch: n('pitch', 0), getYaw: n('yaw', 0), getHfov: n('hfov', 100),
      getPitchBounds: [n('minPitch', -90), n('maxPitch', 90)], getYawBounds: [n('minYaw', -180), n('maxYaw', 180)],
      getHfovBounds: [n('minHfov', 20), n('maxHfov', { stereographic: 330, fisheye: 360, equirectangular: 360 }[s.lens] || 120)], getNorthOffset: n('northOffset', 0),
      getHorizonRoll: n('horizonRoll', 0), getHorizonPitch: n('horizonPitch', 0), getScene: first,
      getLens: s.lens || 'rectilinear', getError: null, getConfig: config, mouseEventToCoords: null,
      removeScene: false, removeHotSpot: false,
      getContainer: typeof container === 'string' ? document.getElementById(container) : container,
    };
  }

  function viewer(container, config) {
    var real = null;
    var running = false;
    var queue = [];
    prefetch(config);
    var proxy = new Proxy({}, {
      get: function (target, name) {
        if (name === 'then') return undefined;
        return function () {
          var args = arguments;
          if (real && (running || !GETTERS.test(String(name)))) {
            var answer = real[name].apply(real, args);
            return answer === real ? proxy : answer; // setters chain on what the page holds
          }
          if (GETTERS.test(String(name))) {
            var early = before(config, container);
            return name in early ? early[name] : undefined;
          }
          queue.push([name, args]);
          return proxy;
        };
      },
    });
    load().then(function (m) {
      real = new m.Viewer(container, config || {});
      real.ready.then(function () { running = true; }, function () { running = true; });
      for (var i = 0; i < queue.length; i++) real[queue[i][0]].apply(real, queue[i][1]);
      queue = [];
    }, function (e) { console.error('ImageStage viewer could not load its module:', e); });
    return proxy;
  }

  window.pannellum = { viewer: viewer };
  window.imagestageViewer = { viewer: viewer, load: load };
})();

# Convenience targets. The Swift package is the build; these wrap what it cannot express.
SWIFTC ?= swiftc
EMBEDDED_LIB := $(shell dirname $$(dirname $$(command -v $(SWIFTC))))/lib/swift/embedded/wasm32-unknown-none-wasm
WASM_FLAGS := -target wasm32-unknown-none-wasm -enable-experimental-feature Embedded -wmo \
  -parse-as-library -Xfrontend -disable-stack-protector -Osize
OUT := build/embedded
# wasm-ld's default stack is 64 KB: a tour's config (scenes of ~50 settings each, copied as
# values) overflowed it in the replay of the fuzz corpus ("memory access out of bounds").
# Every module gets 1 MB, the replay the same as the pages, so it sees what they would.
WASM_STACK := 1048576
# x86-64-v2 for the renderer on x86-64 hosts, unless IMAGESTAGE_PORTABLE=1 (scripts/cpu-flags).
CPU_FLAGS := $(shell scripts/cpu-flags)

.PHONY: embedded clean

# Compiles the cores (CoreMath, Stage, Panorama, StageJSON) and the scene layer (Scenes) with Embedded Swift for wasm32, links them with
# wasi-libc, and runs embedded/check.mjs under node against the result, then replays the fuzzer's
# corpus for the pure-Swift readers through it (embedded/replay.mjs: traps only 32-bit code has).
EMBEDDED_OBJECTS := $(addprefix $(OUT)/,CoreMath.o Stage.o Panorama.o StageJSON.o Scenes.o StageWasm.o PanoramaWasm.o \
  ScenesWasm.o ReplayWasm.o)
embedded: $(EMBEDDED_OBJECTS)
	wasm-ld --no-entry -z stack-size=$(WASM_STACK) --export=stage_drop_slot --export=stage_center_x_after_release \
	  --export=pano_yaw_from_attitude --export=pano_parse_log --export=pano_render_center --export=pano_grid_psnr --export=pano_mip_spread \
	  --export=scenes_drop_beside_slot1 --export=scenes_hfov_after_wheel \
	  --export=replay_alloc --export=replay_free --export=replay_input \
	  $(EMBEDDED_OBJECTS) $(EMBEDDED_LIB)/*.a -L/usr/lib/wasm32-wasi -lc -o $(OUT)/stage.wasm
	node embedded/check.mjs $(OUT)/stage.wasm
	node embedded/replay.mjs $(OUT)/stage.wasm fuzz/corpus Tests/Scenarios

# One rule a module, compiled every time (FORCE) as before, but each after the modules it
# imports only (a module's .o stands for the .swiftmodule written beside it), so `make -j2
# embedded` compiles Stage beside Panorama and the four wrappers two at a time: make test's
# serial chain of nine single-threaded compiles took 3m37s with a core idle (2026-12-07).
$(OUT)/Stage.o $(OUT)/Panorama.o: $(OUT)/CoreMath.o
$(OUT)/StageJSON.o: $(OUT)/Stage.o
$(OUT)/Scenes.o: $(OUT)/Panorama.o $(OUT)/StageJSON.o
$(OUT)/CoreMath.o $(OUT)/Stage.o $(OUT)/Panorama.o $(OUT)/StageJSON.o $(OUT)/Scenes.o: $(OUT)/%.o: FORCE
	@mkdir -p $(OUT)
	$(SWIFTC) $(WASM_FLAGS) -I $(OUT) -module-name $* -emit-module -emit-module-path $(OUT)/$*.swiftmodule \
	  Sources/$*/*.swift -c -o $@
$(OUT)/StageWasm.o: $(OUT)/Stage.o
$(OUT)/PanoramaWasm.o: $(OUT)/Panorama.o
$(OUT)/ScenesWasm.o: $(OUT)/Scenes.o
$(OUT)/StageWasm.o $(OUT)/PanoramaWasm.o $(OUT)/ScenesWasm.o: $(OUT)/%.o: FORCE
	$(SWIFTC) $(WASM_FLAGS) -I $(OUT) -module-name $* embedded/$*.swift -c -o $@
$(OUT)/ReplayWasm.o: $(OUT)/Scenes.o FORCE
	$(SWIFTC) $(WASM_FLAGS) -I $(OUT) -module-name ReplayWasm embedded/ReplayWasm.swift fuzz/PortableReaders.swift \
	  -c -o $@

clean:
	rm -rf build

.PHONY: web web-serve web-test web-cube-bench

WEB := build/web
WEB_OBJ := build/web-obj
# The page's module: the cores, StageJSON and the scene layer with the exports of
# web/page/ImageStageWeb.swift, linked as a reactor (state lives across calls; JS calls
# `_initialize` once). SIMD128 on: every current browser has it. WEB_SIMD=0 builds scalar.
WEB_SIMD ?= 1
# Every module for size except Panorama, whose renderer is 2.5× faster at -O (10 → 4 ms a
# 1280×720 frame here) for 6 KB more gzipped.
# Bitcode objects, optimised once more across modules when wasm-ld links each one (LTO:
# 3–6 KB gzipped off each module, the functions a module never calls dropped before
# wasm-opt sees them).
WEB_FLAGS := $(filter-out -Osize,$(WASM_FLAGS)) $(if $(filter 1,$(WEB_SIMD)),-Xcc -msimd128,) -lto=llvm-full
WEB_MODULES := CoreMath Stage Panorama StageJSON Scenes
# The export files only: `@_extern(c)` for the libc functions WasmMemory.swift calls.
WEB_EXPORT_FLAGS := -enable-experimental-feature Extern
WEB_EXPORTS := $(shell sed -n 's/^@_cdecl("\(web_[a-z_]*\)")/--export=\1/p' web/page/ImageStageWeb.swift web/shared/WasmBridge.swift web/shared/WasmMemory.swift)
VIEWER_EXPORTS := $(shell sed -n 's/^@_cdecl("\([a-z]*_[a-z_]*\)")/--export=\1/p' web/viewer/ViewerWeb.swift web/shared/WasmBridge.swift web/shared/WasmMemory.swift)

WEB_WASM := $(WEB)/imagestage$(if $(filter 1,$(WEB_SIMD)),,-scalar).wasm
WEB_CORE_SOURCES := $(wildcard $(foreach m,$(WEB_MODULES),Sources/$(m)/*.swift))
WEB_SOURCES := $(WEB_CORE_SOURCES) web/page/ImageStageWeb.swift web/shared/WasmBridge.swift web/shared/WasmMemory.swift web/shared/WasmRuntime.swift
VIEWER_WASM := $(WEB)/imagestage-viewer.wasm
VIEWER_CPU_WASM := $(WEB)/imagestage-viewer-cpu.wasm
BOARD_WASM := $(WEB)/imagestage-board.wasm
SORTABLE_WASM := $(WEB)/imagestage-sortable.wasm
# The scripts, styles and pages, copied as they are (ES modules: no bundler) from web/viewer,
# web/board, web/page and web/shared into one flat folder, the layout that ships (the npm
# package, the zip): their imports are written as shipped ('./wasm.js'). The board's
# examples go to build/web/examples.
WEB_PARTS := viewer board page shared
WEB_FILES := $(notdir $(wildcard $(foreach d,$(WEB_PARTS),web/$(d)/*.js web/$(d)/*.css web/$(d)/*.html)))
WEB_COPIES := $(addprefix $(WEB)/,$(WEB_FILES)) \
  $(patsubst web/board/%,$(WEB)/%,$(wildcard web/board/examples/*.html web/board/examples/art/*.svg))

# Rebuilt only when a Swift source of the page changed (the glue and page are copied).
# The viewer's module is SIMD128 only: `make web WEB_SIMD=0` (bench/web.sh's scalar build)
# must not overwrite it with a scalar one.
web: deps version $(WEB_WASM) $(if $(filter 1,$(WEB_SIMD)),$(VIEWER_WASM) $(VIEWER_CPU_WASM) $(BOARD_WASM) $(SORTABLE_WASM)) $(WEB_COPIES) $(WEB)/sample.jpg
	@echo "built $(WEB): open it with make web-serve"

# The cores and the scene layer, compiled once for both modules. Rebuilt when a source or the
# compile's flags changed (WEB_CORE_FLAGS, rewritten only when its text differs), not at every
# edit of this Makefile.
WEB_CORE_STAMP := $(WEB_OBJ)/$(WEB_SIMD)/cores.stamp
WEB_CORE_FLAGS := $(WEB_OBJ)/$(WEB_SIMD)/cores.flags
# Modules compiled at -O (the rest at -Osize).
WEB_SPEED_MODULES := Panorama
WEB_CORE_COMMAND := $(SWIFTC) $(WEB_FLAGS) $(WEB_MODULES) -O: $(WEB_SPEED_MODULES)
FORCE:
$(WEB_CORE_FLAGS): FORCE
	@mkdir -p $(dir $@)
	@echo '$(WEB_CORE_COMMAND)' | cmp -s - $@ || echo '$(WEB_CORE_COMMAND)' >$@
$(WEB_CORE_STAMP): $(WEB_CORE_SOURCES) $(WEB_CORE_FLAGS)
	@mkdir -p $(WEB_OBJ)/$(WEB_SIMD)
	@for m in $(WEB_MODULES); do \
	  opt=-Osize; case " $(WEB_SPEED_MODULES) " in *" $$m "*) opt=-O;; esac; \
	  $(SWIFTC) $(WEB_FLAGS) $$opt -I $(WEB_OBJ)/$(WEB_SIMD) -module-name $$m -emit-module \
	    -emit-module-path $(WEB_OBJ)/$(WEB_SIMD)/$$m.swiftmodule Sources/$$m/*.swift -c -o $(WEB_OBJ)/$(WEB_SIMD)/$$m.o || exit 1; \
	done
	@touch $@

$(WEB_WASM): $(WEB_CORE_STAMP) web/page/ImageStageWeb.swift web/shared/WasmBridge.swift web/shared/WasmMemory.swift web/shared/WasmRuntime.swift
	@mkdir -p $(WEB)
	$(SWIFTC) $(WEB_FLAGS) $(WEB_EXPORT_FLAGS) -Osize -I $(WEB_OBJ)/$(WEB_SIMD) -module-name ImageStageWeb web/page/ImageStageWeb.swift web/shared/WasmBridge.swift web/shared/WasmMemory.swift web/shared/WasmRuntime.swift \
	  -c -o $(WEB_OBJ)/$(WEB_SIMD)/ImageStageWeb.o
	wasm-ld --no-entry -z stack-size=$(WASM_STACK) --export=_initialize $(WEB_EXPORTS) --max-memory=4294967296 \
	  /usr/lib/wasm32-wasi/crt1-reactor.o $(foreach m,$(WEB_MODULES) ImageStageWeb,$(WEB_OBJ)/$(WEB_SIMD)/$(m).o) \
	  $(EMBEDDED_LIB)/*.a -L/usr/lib/wasm32-wasi -lc -o $@
	wasm-strip $@
	wasm-opt -Oz --enable-simd --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
	  --enable-nontrapping-float-to-int $@ -o $@

# bench/cube.sh's module: the cores with bench/web/CubeBench.swift (the cube renderers beside
# the equirectangular one, in wasm as the web viewer's CPU renderer runs them). Not shipped.
CUBE_BENCH_WASM := $(WEB_OBJ)/$(WEB_SIMD)/cube-bench.wasm
web-cube-bench: $(CUBE_BENCH_WASM)
$(CUBE_BENCH_WASM): $(WEB_CORE_STAMP) bench/web/CubeBench.swift
	$(SWIFTC) $(WEB_FLAGS) -O -I $(WEB_OBJ)/$(WEB_SIMD) -module-name CubeBench bench/web/CubeBench.swift \
	  -c -o $(WEB_OBJ)/$(WEB_SIMD)/CubeBench.o
	wasm-ld --no-entry --gc-sections -z stack-size=$(WASM_STACK) --export=_initialize --export=bench_cube_setup \
	  --export=bench_cube_render --max-memory=4294967296 /usr/lib/wasm32-wasi/crt1-reactor.o \
	  $(foreach m,CoreMath Panorama CubeBench,$(WEB_OBJ)/$(WEB_SIMD)/$(m).o) $(EMBEDDED_LIB)/*.a \
	  -L/usr/lib/wasm32-wasi -lc -o $@

# The viewer's own module: the same cores with web/viewer/ViewerWeb.swift's exports; the linker
# drops the boards and the Studio, which nothing it exports reaches. Two links of one object:
# imagestage-viewer.wasm, what a page with WebGL2 needs (no CPU renderer: its exports,
# VIEWER_CPU_ONLY, are left out, and the linker drops the renderer), and
# imagestage-viewer-cpu.wasm with every export, which the JS fetches instead only where a
# scene is drawn on the CPU (no WebGL2, a software one, or `renderer: 'cpu'`).
VIEWER_CPU_ONLY := viewer_commit viewer_mip_levels viewer_render_cpu viewer_tile_pixels viewer_render_tiles \
  viewer_tile_memory web_panorama_buffer
VIEWER_GPU_EXPORTS := $(filter-out $(addprefix --export=,$(VIEWER_CPU_ONLY)),$(VIEWER_EXPORTS))
VIEWER_OBJ := $(WEB_OBJ)/$(WEB_SIMD)/ViewerWeb.o
# The lean module has no renderer loop to speed up: its Panorama (configs, tile schedules,
# the camera's numbers) is compiled once more at -Osize (13 KB gzipped less than -O's).
PANORAMA_SMALL := $(WEB_OBJ)/$(WEB_SIMD)/Panorama-Osize.o
$(PANORAMA_SMALL): $(WEB_CORE_STAMP)
	$(SWIFTC) $(WEB_FLAGS) -Osize -I $(WEB_OBJ)/$(WEB_SIMD) -module-name Panorama Sources/Panorama/*.swift -c -o $@
# The objects of each viewer link: $(call viewer_objects,TARGET).
viewer_objects = $(foreach m,$(WEB_MODULES) ViewerWeb,$(if $(filter Panorama:$(VIEWER_WASM),$(m):$(1)),$(PANORAMA_SMALL),$(WEB_OBJ)/$(WEB_SIMD)/$(m).o))
$(VIEWER_OBJ): $(WEB_CORE_STAMP) web/viewer/ViewerWeb.swift web/shared/WasmBridge.swift web/shared/WasmMemory.swift web/shared/WasmRuntime.swift
	$(SWIFTC) $(WEB_FLAGS) $(WEB_EXPORT_FLAGS) -Osize -I $(WEB_OBJ)/$(WEB_SIMD) -module-name ViewerWeb web/viewer/ViewerWeb.swift web/shared/WasmBridge.swift web/shared/WasmMemory.swift web/shared/WasmRuntime.swift \
	  -c -o $@
$(VIEWER_WASM): $(PANORAMA_SMALL)
$(VIEWER_WASM) $(VIEWER_CPU_WASM): $(VIEWER_OBJ)
	@mkdir -p $(WEB)
	wasm-ld --no-entry --gc-sections -z stack-size=$(WASM_STACK) --export=_initialize \
	  $(if $(filter $(VIEWER_CPU_WASM),$@),$(VIEWER_EXPORTS),$(VIEWER_GPU_EXPORTS)) --max-memory=4294967296 \
	  /usr/lib/wasm32-wasi/crt1-reactor.o $(call viewer_objects,$@) \
	  $(EMBEDDED_LIB)/*.a -L/usr/lib/wasm32-wasi -lc -o $@
	wasm-strip $@
	wasm-opt -Oz --enable-simd --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
	  --enable-nontrapping-float-to-int $@ -o $@

# The viewer's frame allocates nothing (tests/web/wasm/viewer-frame-alloc.mjs): the lean
# viewer's objects linked once more with libc's allocators wrapped by a counter
# (tests/web/wasm/alloc-counter.c, never shipped), run under node for 300 frames.
FRAME_ALLOC_WASM := $(WEB_OBJ)/$(WEB_SIMD)/viewer-frame-alloc.wasm
ALLOC_WRAPS := $(foreach f,malloc calloc realloc posix_memalign aligned_alloc,--wrap=$(f))
# With it, under node: wasm.js gives every shipped module its WASI imports and refuses any
# other import by name (tests/web/wasm/wasi-imports.mjs); and the viewer's .d.ts allows what
# its core loads and refuses what it refuses (tests/web/test_declarations.py: tsc --strict).
.PHONY: web-wasm-test
web-wasm-test: web $(FRAME_ALLOC_WASM)
	node tests/web/wasm/viewer-frame-alloc.mjs $(FRAME_ALLOC_WASM)
	node tests/web/wasm/wasi-imports.mjs $(WEB)/*.wasm
	python3 tests/web/test_declarations.py
$(FRAME_ALLOC_WASM): $(VIEWER_OBJ) $(PANORAMA_SMALL) tests/web/wasm/alloc-counter.c
	$(shell dirname $$(command -v $(SWIFTC)))/clang --target=wasm32-wasi --sysroot=/usr -isystem /usr/include/wasm32-wasi -Os \
	  -c tests/web/wasm/alloc-counter.c -o $(WEB_OBJ)/$(WEB_SIMD)/alloc-counter.o
	wasm-ld --no-entry --gc-sections -z stack-size=$(WASM_STACK) --export=_initialize $(VIEWER_GPU_EXPORTS) \
	  --export=test_allocations $(ALLOC_WRAPS) --max-memory=4294967296 /usr/lib/wasm32-wasi/crt1-reactor.o \
	  $(call viewer_objects,$(VIEWER_WASM)) $(WEB_OBJ)/$(WEB_SIMD)/alloc-counter.o \
	  $(EMBEDDED_LIB)/*.a -L/usr/lib/wasm32-wasi -lc -o $@

# The board component's module: only CoreMath, Stage and StageJSON with web/board/BoardWeb.swift,
# so a page that wants the drag engine does not download the panorama renderer. Of StageJSON
# only SavedState's merge is linked: options cross as numbers (board-options.js checks them).
BOARD_SOURCES := web/board/BoardWeb.swift web/shared/WasmMemory.swift web/shared/WasmRuntime.swift
BOARD_EXPORTS := $(shell sed -n 's/^@_cdecl("\([a-z]*_[a-z_]*\)")/--export=\1/p' $(BOARD_SOURCES))
$(BOARD_WASM): $(WEB_CORE_STAMP) $(BOARD_SOURCES)
	@mkdir -p $(WEB)
	$(SWIFTC) $(WEB_FLAGS) $(WEB_EXPORT_FLAGS) -Osize -I $(WEB_OBJ)/$(WEB_SIMD) -module-name BoardWeb $(BOARD_SOURCES) \
	  -c -o $(WEB_OBJ)/$(WEB_SIMD)/BoardWeb.o
	wasm-ld --no-entry --gc-sections -z stack-size=$(WASM_STACK) --export=_initialize $(BOARD_EXPORTS) \
	  /usr/lib/wasm32-wasi/crt1-reactor.o $(foreach m,CoreMath Stage StageJSON BoardWeb,$(WEB_OBJ)/$(WEB_SIMD)/$(m).o) \
	  $(EMBEDDED_LIB)/*.a -L/usr/lib/wasm32-wasi -lc -o $@
	wasm-strip $@
	wasm-opt -Oz --enable-simd --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
	  --enable-nontrapping-float-to-int $@ -o $@

# The board's sortable mode (web/board/board-sortable.js) fetches its own module: CoreMath and
# Stage's SortableEngine with web/board/SortableWeb.swift, no JSON and no slot engine, so a
# locations board does not carry the sortable lists and a sortable page not the slots.
# Option names are checked in JS (web/board/board-options.js), so the module carries no text.
SORTABLE_SOURCES := web/board/SortableWeb.swift web/shared/WasmRuntime.swift
SORTABLE_EXPORTS := $(shell sed -n 's/^@_cdecl("\([a-z]*_[a-z_]*\)")/--export=\1/p' $(SORTABLE_SOURCES))
$(SORTABLE_WASM): $(WEB_CORE_STAMP) $(SORTABLE_SOURCES)
	@mkdir -p $(WEB)
	$(SWIFTC) $(WEB_FLAGS) $(WEB_EXPORT_FLAGS) -Osize -I $(WEB_OBJ)/$(WEB_SIMD) -module-name SortableWeb $(SORTABLE_SOURCES) \
	  -c -o $(WEB_OBJ)/$(WEB_SIMD)/SortableWeb.o
	wasm-ld --no-entry --gc-sections -z stack-size=$(WASM_STACK) --export=_initialize $(SORTABLE_EXPORTS) \
	  /usr/lib/wasm32-wasi/crt1-reactor.o $(foreach m,CoreMath Stage SortableWeb,$(WEB_OBJ)/$(WEB_SIMD)/$(m).o) \
	  $(EMBEDDED_LIB)/*.a -L/usr/lib/wasm32-wasi -lc -o $@
	wasm-strip $@
	wasm-opt -Oz --enable-simd --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
	  --enable-nontrapping-float-to-int $@ -o $@

# Every shipped web file against its budget in web/size-budgets.txt (as make web-min ships
# it, gzip -9; the demo page minified the same way): fails when one grew past it.
.PHONY: size-check
size-check: web-min
	scripts/web-weights --check web/size-budgets.txt $(WEB_MIN) $(WEB)

# The size report (scripts/wasm-size-report): each shipped module linked once more, unstripped
# and with its data segments unmerged, so the name section says which function and which
# data took the bytes. bench/web.sh prints it beside each component's gzipped totals.
WEB_NAMES := $(WEB_OBJ)/$(WEB_SIMD)/names
.PHONY: web-size
web-size: $(WEB_WASM) $(if $(filter 1,$(WEB_SIMD)),$(VIEWER_WASM) $(VIEWER_CPU_WASM) $(BOARD_WASM) $(SORTABLE_WASM))
	@mkdir -p $(WEB_NAMES)
	@wasm-ld --no-entry --no-merge-data-segments -z stack-size=$(WASM_STACK) --export=_initialize $(WEB_EXPORTS) \
	  /usr/lib/wasm32-wasi/crt1-reactor.o $(foreach m,$(WEB_MODULES) ImageStageWeb,$(WEB_OBJ)/$(WEB_SIMD)/$(m).o) \
	  $(EMBEDDED_LIB)/*.a -L/usr/lib/wasm32-wasi -lc -o $(WEB_NAMES)/imagestage.wasm
	@wasm-ld --no-entry --gc-sections --no-merge-data-segments -z stack-size=$(WASM_STACK) --export=_initialize $(VIEWER_GPU_EXPORTS) \
	  /usr/lib/wasm32-wasi/crt1-reactor.o $(call viewer_objects,$(VIEWER_WASM)) \
	  $(EMBEDDED_LIB)/*.a -L/usr/lib/wasm32-wasi -lc -o $(WEB_NAMES)/imagestage-viewer.wasm
	@wasm-ld --no-entry --gc-sections --no-merge-data-segments -z stack-size=$(WASM_STACK) --export=_initialize $(VIEWER_EXPORTS) \
	  /usr/lib/wasm32-wasi/crt1-reactor.o $(foreach m,$(WEB_MODULES) ViewerWeb,$(WEB_OBJ)/$(WEB_SIMD)/$(m).o) \
	  $(EMBEDDED_LIB)/*.a -L/usr/lib/wasm32-wasi -lc -o $(WEB_NAMES)/imagestage-viewer-cpu.wasm
	@wasm-ld --no-entry --gc-sections --no-merge-data-segments -z stack-size=$(WASM_STACK) --export=_initialize $(BOARD_EXPORTS) \
	  /usr/lib/wasm32-wasi/crt1-reactor.o $(foreach m,CoreMath Stage StageJSON BoardWeb,$(WEB_OBJ)/$(WEB_SIMD)/$(m).o) \
	  $(EMBEDDED_LIB)/*.a -L/usr/lib/wasm32-wasi -lc -o $(WEB_NAMES)/imagestage-board.wasm
	@wasm-ld --no-entry --gc-sections --no-merge-data-segments -z stack-size=$(WASM_STACK) --export=_initialize $(SORTABLE_EXPORTS) \
	  /usr/lib/wasm32-wasi/crt1-reactor.o $(foreach m,CoreMath Stage SortableWeb,$(WEB_OBJ)/$(WEB_SIMD)/$(m).o) \
	  $(EMBEDDED_LIB)/*.a -L/usr/lib/wasm32-wasi -lc -o $(WEB_NAMES)/imagestage-sortable.wasm
	scripts/wasm-size-report --top $(or $(TOP),20) viewer=$(WEB_NAMES)/imagestage-viewer.wasm \
	  viewer-cpu=$(WEB_NAMES)/imagestage-viewer-cpu.wasm \
	  board=$(WEB_NAMES)/imagestage-board.wasm sortable=$(WEB_NAMES)/imagestage-sortable.wasm \
	  page=$(WEB_NAMES)/imagestage.wasm

$(WEB)/examples/%: web/board/examples/%
	@mkdir -p $(dir $@)
	cp $< $@
$(WEB)/%: web/viewer/%
	@mkdir -p $(dir $@)
	cp $< $@
$(WEB)/%: web/board/%
	@mkdir -p $(dir $@)
	cp $< $@
$(WEB)/%: web/page/%
	@mkdir -p $(dir $@)
	cp $< $@
$(WEB)/%: web/shared/%
	@mkdir -p $(dir $@)
	cp $< $@

# The bundled panorama: the CLI's generated sample, 4096×2048.
$(WEB)/sample.jpg: Sources/Panorama/SamplePanorama.swift
	@mkdir -p $(WEB)
	$(MAKE) --no-print-directory release-cli
	$(RELEASE_CLI) pano sample -o $@

# Serves build/web on http://127.0.0.1:8000/ (localhost is a secure context: motion works).
web-serve: web
	cd $(WEB) && python3 -m http.server 8000 --bind 127.0.0.1

# The browser tests: headless Chromium driven by selenium, real pointer, touch and key
# input, sensors injected over CDP (tests/web/test_web.py).
web-test: web web-wasm-test
	$(MAKE) --no-print-directory release-cli  # the tiler, for Pannellum's test on our tiles
	scripts/install-test-venv
	IMAGESTAGE_CLI=$(RELEASE_CLI) build/venv/bin/python tests/web/test_web.py

.PHONY: web-min dist dist-test

# What ships of the web components (scripts/minify-web): the viewer's and the board's modules
# minified with source maps by Debian's esbuild (version pinned and checked there), the
# classic scripts and CSS minified, the wasm. The npm package, the zip and bench/web.sh's
# weights are made from this folder.
WEB_MIN := build/web-min
web-min: web
	scripts/minify-web $(WEB) $(WEB_MIN)

# The release artefacts in build/dist (packaging/README.md): the npm package, the
# static-hosting zip, the .deb (lintian: no errors) and the DocC archives.
DIST := build/dist
VERSION := $(shell tr -d ' \n' < VERSION)
dist: build web-min stage docs
	@rm -rf $(DIST) && mkdir -p $(DIST)
	scripts/version --check
	packaging/npm/build.sh $(WEB_MIN) $(DIST)
	packaging/zip/build.sh $(WEB_MIN) $(STAGE)/bin/imagestage $(DIST)
	packaging/deb/build.sh $(STAGE) $(DIST)
	@rm -rf build/dist-stage/docs && mkdir -p build/dist-stage/docs/imagestage-docs-$(VERSION)
	@for m in $(DOC_MODULES); do cp -a build/docs/$$m.doccarchive build/dist-stage/docs/imagestage-docs-$(VERSION)/ && \
	  echo $(VERSION) >build/dist-stage/docs/imagestage-docs-$(VERSION)/$$m.doccarchive/VERSION || exit 1; done
	tar -C build/dist-stage/docs --owner=0 --group=0 --sort=name -czf $(DIST)/imagestage-docs-$(VERSION).tar.gz \
	  imagestage-docs-$(VERSION)
	packaging/deb/lint.sh $(DIST)/imagestage_$(VERSION)_*.deb
	@ls -l $(DIST)

# Each artefact used as a new user would (tests/dist): the npm package installed offline and
# bundled by esbuild, the zip served, both in Chromium; the types through tsc --strict; the
# .deb's binaries run with /opt/swift hidden, its man pages and completions.
dist-test: dist
	scripts/install-test-venv
	build/venv/bin/python tests/dist/test_dist.py
	tests/dist/deb.sh $(DIST)/imagestage_$(VERSION)_*.deb

.PHONY: deps deps-build deps-app version build check test lint app asan asan-build docs stage install release-cli

PREFIX ?= /usr/local
# What `make install` and the .deb both install, staged once in build/stage (relative to the
# prefix): the app and the CLI linked with the Swift standard library statically (no
# /opt/swift at run time), their man pages (packaging/manpage.py, from --help), the CLI's
# completions for bash, zsh and fish (from `imagestage completions`), the .desktop entry and
# its icon. Only the build's dependencies are needed (scripts/install-deps build).
STAGE := build/stage
# Its own scratch folder: the flag changes how every module compiles, so sharing .build with
# the dynamic release build would rebuild everything at each switch.
STATIC_BUILD := .build/static
# The release CLI that make web's sample panorama and make web-test's tiles come from: this
# static build's, which make dist links anyway (the flag changes nothing they test), so make
# test compiles release code once, not twice.
RELEASE_CLI := $(STATIC_BUILD)/release/imagestage
release-cli: version
	swift build -c release --static-swift-stdlib $(CPU_FLAGS) --scratch-path $(STATIC_BUILD) --product imagestage
stage: deps-build version
	swift build -c release --static-swift-stdlib $(CPU_FLAGS) --scratch-path $(STATIC_BUILD) --product imagestage-app
	swift build -c release --static-swift-stdlib $(CPU_FLAGS) --scratch-path $(STATIC_BUILD) --product imagestage
	packaging/stage.sh $(STATIC_BUILD)/release $(STAGE)

# PREFIX=~/.local works without root: bash and fish find completions under ~/.local/share.
# zsh's completion goes to site-functions (on zsh's fpath under /usr/local; add
# PREFIX/share/zsh/site-functions to fpath for another PREFIX); the .deb's, under /usr, to
# Debian's vendor-completions.
install: stage
	@cd $(STAGE) && find . -type f | LC_ALL=C sort | while read -r f; do \
	  mode=644; case $$f in ./bin/*) mode=755;; esac; \
	  to="$(PREFIX)/$$(echo "$${f#./}" | sed 's|^share/zsh/vendor-completions/|share/zsh/site-functions/|')"; \
	  install -D -m $$mode "$$f" "$$to" && echo "  $$to" || exit 1; done
	@echo "installed under $(PREFIX)"

# The README's main command: dependencies, a release build, and the app on its bundled
# (generated) images. Without a display it runs under Xvfb and saves a screenshot instead.
app: deps-app version
	swift build -c release $(CPU_FLAGS) --product imagestage-app
	swift build -c release $(CPU_FLAGS) --product imagestage
	@echo "built .build/release/imagestage-app (the app) and .build/release/imagestage (the CLI);" \
	  "make install PREFIX=~/.local puts both on your PATH"
	@if [ -n "$$DISPLAY" ] || [ -n "$$WAYLAND_DISPLAY" ]; then \
	  .build/release/imagestage-app $(ARGS); \
	else \
	  mkdir -p build; \
	  echo "No display: running under Xvfb and saving a screenshot"; \
	  xvfb-run -a -s "-screen 0 1280x1024x24" .build/release/imagestage-app --screenshot build/imagestage-app.png $(ARGS) \
	    && echo "wrote build/imagestage-app.png (open it in any image viewer)"; \
	fi
# Debian packages: `build` for the app, the CLI and `make install`; `app` adds Xvfb (make app
# without a display); `test` is everything make test and make dist use (browser, wasm tools).
deps:
	scripts/install-deps test
deps-build:
	scripts/install-deps build
deps-app:
	scripts/install-deps app

# VERSION into the two sources that compile it in (scripts/version).
version:
	@scripts/version

build: deps version
	swift build $(CPU_FLAGS) --build-tests

# The suites that start Xvfb and drive the app with xdotool (ToolTests/App*GUITests).
GUI_SUITES := AppGUITests|AppSceneGUITests|AppVideoGUITests|AppCameraGUITests|AppDockGUITests
# The quick tier (docs/architecture.md, "Test tiers"): the build (incremental, with make
# build's flags), every Swift suite but the GUI ones, and the format lint. It ends with its
# time: wall, and the CPU (user + sys) of all it ran, which other load does not change
# (`times` into a file: in a pipe or $(…) it runs in a subshell that has no children).
check: deps version
	@start=$$(date +%s); \
	swift build $(CPU_FLAGS) --build-tests && \
	swift test $(CPU_FLAGS) --skip-build --skip '$(GUI_SUITES)' && \
	$(MAKE) --no-print-directory lint; status=$$?; \
	cpu=$$(mktemp); times >$$cpu; set -- $$(tail -n 1 $$cpu); rm -f $$cpu; \
	echo "make check: $$(( $$(date +%s) - start )) s wall, CPU $$1 user + $$2 sys:" \
	  "$$([ $$status = 0 ] && echo passed || echo FAILED)"; \
	exit $$status

# The README's test command: dependencies, one build, the whole suite in one process,
# the Embedded Swift check, the web page in headless Chromium, the format lint, the docs and
# the release artefacts (make dist, each installed and used: tests/dist), the suite again under AddressSanitizer,
# and the fuzzer for 30 s (compiled beside the steps before it, which leave a core idle).
# Each step prints the time it starts, so a CI log says where the minutes went.
STEP = @echo "== make test, $$(date -u +%T): $(1)"
test: build
	$(call STEP,swift test)
	swift test $(CPU_FLAGS) --skip-build
	$(call STEP,make -j2 embedded)
	$(MAKE) -j2 embedded
	$(call STEP,make web-test beside make asan-build stage)
	@mkdir -p build; echo "make asan-build stage (beside the browser suite; their output follows it)"; \
	$(MAKE) --no-print-directory asan-build stage >build/beside-web-test.log 2>&1 & beside=$$!; \
	$(MAKE) web-test; web=$$?; wait $$beside; built=$$?; cat build/beside-web-test.log; \
	[ $$built = 0 ] || echo "make asan-build stage FAILED"; [ $$web = 0 ] && [ $$built = 0 ]
	$(call STEP,size-check lint dist-test asan beside fuzz/run.sh --build)
	@echo "fuzz/run.sh --build (beside size-check, lint, dist-test and asan; its output follows asan's)"; \
	fuzz/run.sh --build >build/fuzz-build.log 2>&1 & fuzz=$$!; \
	$(MAKE) size-check && $(MAKE) lint && $(MAKE) dist-test && $(MAKE) asan; steps=$$?; \
	wait $$fuzz; built=$$?; grep -v 'Cannot export local symbol' build/fuzz-build.log; \
	[ $$built = 0 ] || echo "fuzz/run.sh --build FAILED"; [ $$steps = 0 ] && [ $$built = 0 ]
	$(call STEP,fuzz/run.sh --run 30)
	fuzz/run.sh --run 30
	$(call STEP,done)

# AddressSanitizer, in its own build directory, on the tests of the modules that read or
# write through unsafe pointers, where a read out of bounds passes unnoticed otherwise: the
# renderers and the MP4 box reader (PanoramaTests), the codecs, FFmpeg and the C kernels
# (RasterTests: CTurboJPEG, CSpng, CZlib, CJPEGRows, CKernels, CFFmpeg), files and child
# processes (HostIOTests), the JSON, scenario and viewer-config readers (StageJSONTests), and
# the MP4 reader against FFmpeg's (ToolTests' MP4SphericalReader suite). The GUI suites, the
# engine and the scene layer (safe Swift only) ran once in make test's plain pass. Built: the
# test bundle and the CLI (the MP4 suite makes its clips' image with it), not the app or the
# benchmarks. Leak reports are off: the ones seen come from XCTest, Foundation's Process,
# libX11 and libdbus, not from this code.
ASAN_TESTS := ^(PanoramaTests|RasterTests|HostIOTests|StageJSONTests)\.|^ToolTests\.MP4SphericalReaderTests
# Not under ASan (they ran in make test's plain pass): the grid's accuracy over 16 million
# exact directions (arithmetic on values, no pixel read; 35 s in a debug build), and the
# kernel timing, whose figures mean nothing under ASan (KernelTests reads through every
# kernel, edges included).
ASAN_SKIP := interpolatedMappingStaysCloseToTheExactOne|theMeasurementTimesEveryKernelThisMachineHas
asan: deps asan-build
	ASAN_OPTIONS=detect_leaks=0 swift test $(CPU_FLAGS) --skip-build --sanitize=address --scratch-path .build/asan \
	  --filter '$(ASAN_TESTS)' --skip '$(ASAN_SKIP)'

# make test compiles this and the release build (stage) beside web-test: its wasm and CLI builds
# and then the browser suite, whose Chromium leaves a core idle while it waits on pages. One
# after the other they took minutes each; beside it, both were done before the browser suite
# began (29m35s for make test, 2026-12-07). It has no deps prerequisite of its own: make
# test's build installed everything.
asan-build:
	swift build $(CPU_FLAGS) --sanitize=address --scratch-path .build/asan --product ImageStagePackageTests
	swift build $(CPU_FLAGS) --sanitize=address --scratch-path .build/asan --product imagestage

# DocC archives for Stage, Panorama and the scene layer, with the toolchain's docc and no
# plugin package: SwiftPM dumps the symbol graphs, `docc convert` joins each module's with its
# catalog (Sources/M/M.docc). Open build/docs/M.doccarchive with `docc preview` or a host.
DOC_MODULES := Stage Panorama Scenes
# With the build's flags: without them SwiftPM compiled every module again (and make build
# after it, again).
docs:
	swift package $(CPU_FLAGS) dump-symbol-graph --minimum-access-level public >/dev/null
	@mkdir -p build/docs
	@for m in $(DOC_MODULES); do \
	  rm -rf build/symbols/$$m && mkdir -p build/symbols/$$m && \
	  cp $$(find .build -path '*symbolgraph*' \( -name "$$m.symbols.json" -o -name "$$m@*.symbols.json" \)) build/symbols/$$m/ && \
	  docc convert Sources/$$m/$$m.docc --additional-symbol-graph-dir build/symbols/$$m --fallback-display-name $$m \
	    --fallback-bundle-identifier org.imagestage.$$m --output-path build/docs/$$m.doccarchive \
	    --warnings-as-errors || exit 1; \
	done
	@echo "built build/docs/{$(shell echo $(DOC_MODULES) | tr ' ' ',')}.doccarchive"

# Stage and Panorama, the products, and Raster's codecs (its public API, docs/api.md) also
# need a doc comment on every public declaration:
# the same configuration with that rule on, derived here so the two cannot drift apart.
lint:
	swift format lint --strict -r Sources Tests embedded web fuzz Package.swift
	@mkdir -p build
	sed 's/"AllPublicDeclarationsHaveDocumentation": false/"AllPublicDeclarationsHaveDocumentation": true/' \
	  .swift-format >build/swift-format-public-docs.json
	grep -q '"AllPublicDeclarationsHaveDocumentation": true' build/swift-format-public-docs.json
	swift format lint --strict --configuration build/swift-format-public-docs.json -r Sources/Stage Sources/Panorama \
	  Sources/Raster/Codecs.swift Sources/Raster/Thumbnail.swift Sources/Raster/PNGEncoder.swift

# The fuzzer (fuzz/run.sh: libFuzzer + AddressSanitizer over the file readers: JSON, MP4
# boxes, images, motion logs…) built and run for 30 s: a reader that no longer links or
# traps on its seeds fails here. fuzz/run.sh SECONDS runs it longer.
.PHONY: fuzz-check
fuzz-check:
	fuzz/run.sh 30

# litmusc — one build for the program, its tests, benchmarks and fuzzers.
#
#   make                 bin/litmusc
#   make check           deps, build, unit tests, end-to-end tests (JOBS at a time,
#                        the corpus-wide native sweeps on a fixed sample)
#   make check-all       the same with every corpus test in every sweep
#   make check SANITIZE=1  the same under ASan+UBSan (bin/litmusc-san)
#   make demo            the whole flow on examples/
#   make install PREFIX=/usr/local DESTDIR=   the program, litmusc(1), bash completion
#   make uninstall PREFIX=/usr/local DESTDIR=
#   make fuzz            libFuzzer target for the frontend and lowering (clang)
#   make corpus HERD7=herd7 JAM21=jam21.cat   regenerate tests/corpus (gen + herd7 verdicts)
#   make slurm-check     install slurm-wlm and munge (root), run the Slurm campaign test

CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
OPT     ?= -O2 -g
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
PKGS     = z3 libxml-2.0 libpcre2-8 sqlite3 capstone libelf

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# Capstone is loaded when cc-check first decodes x86 (lift/disasm.c), not
# linked: its relocations would cost every process several milliseconds.
PKG_LIBS   := $(shell pkg-config --libs $(filter-out capstone,$(PKGS)) 2>/dev/null)
CAPSTONE_LIB := $(shell f=$$(pkg-config --variable=libdir capstone 2>/dev/null)/libcapstone.so; \
                  readlink -f "$$f" 2>/dev/null || echo libcapstone.so.4)
PKG_CFLAGS += -DLITMUSC_CAPSTONE_LIB='"$(CAPSTONE_LIB)"'

# LLVM's MC disassembler (its C API, llvm-c/Disassembler.h) decodes the
# AArch64 objects cc-check lifts; Debian's llvm-14-dev.  Without llvm-config
# the program still builds and refuses AArch64 objects, naming what it lacks.
# Its headers are -isystem (they are LLVM's, not ours to warn about).  The
# library is not linked but loaded on the first AArch64 object
# (lift/a64_disasm.c): linked, its relocations cost every process about
# 70 ms of CPU at start-up.
LLVM_CONFIG ?= $(shell command -v llvm-config-14 2>/dev/null || command -v llvm-config 2>/dev/null)
ifneq ($(LLVM_CONFIG),)
  LLVM_CFLAGS := -isystem $(shell $(LLVM_CONFIG) --includedir) -DLITMUSC_HAVE_LLVM \
                 -DLITMUSC_LLVM_LIB='"$(firstword $(shell $(LLVM_CONFIG) --libfiles aarch64))"'
endif
CMOCKA_CFLAGS := $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   := $(shell pkg-config --libs cmocka 2>/dev/null)

ifeq ($(SANITIZE),1)
  BUILD    = build/san
  BIN      = bin/litmusc-san
  SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
else
  BUILD    = build/rel
  BIN      = bin/litmusc
  SANFLAGS =
endif

CFLAGS_ALL = -std=c17 -Wall -Wextra -Werror -D_GNU_SOURCE -I. -I$(BUILD) \
             $(OPT) $(SANFLAGS) $(PKG_CFLAGS) $(LLVM_CFLAGS) $(CFLAGS)
LDLIBS_ALL = $(PKG_LIBS) -ldl -lpthread -lm $(LDLIBS)

# Stages, in dependency order.  Each folder becomes one static archive, so a
# test links only the objects it really uses.
STAGES = util gen isa frontend ir model backends lift harness campaign hunt
SRC_util     = $(wildcard util/*.c)
SRC_gen      = $(wildcard gen/*.c)
SRC_isa      = $(wildcard isa/*.c)
SRC_frontend = $(wildcard frontend/*.c)
SRC_ir       = $(wildcard ir/*.c)
SRC_model    = $(wildcard model/*.c model/*/*.c)
SRC_backends = $(wildcard backends/*.c backends/*/*.c)
SRC_lift     = $(wildcard lift/*.c)
SRC_harness  = $(wildcard harness/*.c)
SRC_campaign = $(wildcard campaign/*.c)
SRC_hunt     = $(wildcard hunt/*.c)
SRC_cli      = $(wildcard cli/*.c)

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))
LIBS = $(foreach s,$(STAGES),$(BUILD)/lib$(s).a)
# Archives in reverse dependency order for the linker.
LINK_LIBS = $(BUILD)/libhunt.a $(BUILD)/libcampaign.a $(BUILD)/libharness.a $(BUILD)/liblift.a $(BUILD)/libbackends.a $(BUILD)/libmodel.a \
            $(BUILD)/libir.a $(BUILD)/libfrontend.a $(BUILD)/libisa.a $(BUILD)/libgen.a $(BUILD)/libutil.a $(BUILD)/libembed.a

# Files compiled into the program as data (models, runtime sources, schemes).
EMBED_FILES = $(sort $(wildcard model/cat/*.cat runtime/*.c runtime/*.h \
                backends/schemes/*.scheme backends/java/*.java))

.PHONY: all check check-all unit e2e demo install uninstall clean fuzz deps bench corpus slurm-check
all: $(BIN)

deps:
	@sh mk/deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

define stage_rule
$(BUILD)/lib$(1).a: $(call obj,$(SRC_$(1)))
	@mkdir -p $$(dir $$@)
	@rm -f $$@
	ar rcs $$@ $$^
endef
$(foreach s,$(STAGES),$(eval $(call stage_rule,$(s))))

$(BUILD)/embed_data.c: mk/embed.sh $(EMBED_FILES)
	@mkdir -p $(dir $@)
	sh mk/embed.sh $(EMBED_FILES) > $@.tmp && mv $@.tmp $@

$(BUILD)/libembed.a: $(BUILD)/embed_data.o
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/embed_data.o: $(BUILD)/embed_data.c
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BIN): $(call obj,$(SRC_cli)) $(LIBS) $(BUILD)/libembed.a
	@mkdir -p bin
	$(CC) $(SANFLAGS) -o $@ $(call obj,$(SRC_cli)) $(LINK_LIBS) $(LDLIBS_ALL)

# ---- tests -------------------------------------------------------------
UNIT_SRC  = $(wildcard tests/unit/test_*.c)
UNIT_BINS = $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))

$(BUILD)/tests/%: tests/unit/%.c $(LIBS) $(BUILD)/libembed.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(CMOCKA_CFLAGS) -o $@ $< $(LINK_LIBS) $(CMOCKA_LIBS) $(LDLIBS_ALL)

unit: $(UNIT_BINS)
	@sh tests/run_unit.sh $(UNIT_BINS)

e2e: $(BIN)
	@LITMUSC=$(CURDIR)/$(BIN) sh tests/run_all.sh

check: deps
	@$(MAKE) --no-print-directory -j$(JOBS) $(BIN) $(UNIT_BINS)
	@JOBS=$(JOBS) LITMUSC=$(CURDIR)/$(BIN) sh tests/run_all.sh $(UNIT_BINS)

check-all: deps
	@$(MAKE) --no-print-directory -j$(JOBS) $(BIN) $(UNIT_BINS)
	@JOBS=$(JOBS) CORPUS_ALL=1 LITMUSC=$(CURDIR)/$(BIN) sh tests/run_all.sh $(UNIT_BINS)

demo: deps
	@$(MAKE) --no-print-directory $(BIN)
	@LITMUSC=$(CURDIR)/$(BIN) sh examples/demo.sh

slurm-check: $(BIN)
	@command -v sbatch >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/tmp/litmusc-apt.log 2>&1; } || \
	  { echo "litmusc: cannot install slurm-wlm and munge (needs root and apt-get; see /tmp/litmusc-apt.log)" >&2; exit 1; }
	@LITMUSC=$(CURDIR)/$(BIN) sh tests/e2e/campaign_slurm.sh

corpus: $(BIN)
	@LITMUSC=$(CURDIR)/$(BIN) HERD7="$(HERD7)" JAM21="$(JAM21)" sh mk/corpus.sh

bench: $(BIN)
	@LITMUSC=$(CURDIR)/$(BIN) sh bench/run.sh

# ---- fuzzing (clang with libFuzzer) ------------------------------------
FUZZ_BUILD = build/fuzz
fuzz: deps
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang \
	  OPT="-O1 -g -fsanitize=fuzzer-no-link,address,undefined" \
	  $(FUZZ_BUILD)/libutil.a $(FUZZ_BUILD)/libfrontend.a $(FUZZ_BUILD)/libir.a $(FUZZ_BUILD)/libembed.a
	clang -std=c17 -D_GNU_SOURCE -I. -O1 -g -fsanitize=fuzzer,address,undefined \
	  -o $(FUZZ_BUILD)/fuzz_frontend tests/fuzz/fuzz_frontend.c \
	  $(FUZZ_BUILD)/libir.a $(FUZZ_BUILD)/libfrontend.a $(FUZZ_BUILD)/libutil.a $(FUZZ_BUILD)/libembed.a
	@mkdir -p $(FUZZ_BUILD)/corpus
	$(FUZZ_BUILD)/fuzz_frontend -max_total_time=$${FUZZ_SECONDS:-60} \
	  -dict=tests/fuzz/litmus.dict $(FUZZ_BUILD)/corpus tests/fuzz/seeds

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/litmusc
	install -m 644 doc/litmusc.1 $(DESTDIR)$(PREFIX)/share/man/man1/litmusc.1
	install -m 644 doc/litmusc.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/litmusc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/litmusc $(DESTDIR)$(PREFIX)/share/man/man1/litmusc.1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/litmusc

clean:
	rm -rf build bin

-include $(shell find build -name '*.d' 2>/dev/null)

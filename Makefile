# make install PREFIX=~/.local   builds a self-contained release vclint and installs PREFIX/bin/vclint,
#                                its man page and its bash, zsh and fish completions
# make uninstall PREFIX=…        removes them
# make dist                      release artifacts in dist/: the tarball, its .sha256, the artifact bundle
# make test                      builds and runs the test suite
PREFIX ?= /usr/local

.PHONY: install uninstall dist test
install:
	PREFIX="$(PREFIX)" Scripts/install.sh

uninstall:
	rm -f "$(PREFIX)/bin/vclint" "$(PREFIX)/share/man/man1/vclint.1" \
		"$(PREFIX)/share/bash-completion/completions/vclint" "$(PREFIX)/share/zsh/site-functions/_vclint" \
		"$(PREFIX)/share/fish/vendor_completions.d/vclint.fish"

dist:
	Scripts/dist.sh

test:
	swift build --build-tests
	swift test --skip-build

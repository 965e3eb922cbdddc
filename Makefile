# make install PREFIX=~/.local   builds a self-contained release vclint and installs PREFIX/bin/vclint
# make uninstall PREFIX=…        removes it
# make test                      builds and runs the test suite
PREFIX ?= /usr/local

.PHONY: install uninstall test
install:
	PREFIX="$(PREFIX)" Scripts/install.sh

uninstall:
	rm -f "$(PREFIX)/bin/vclint"

test:
	swift build --build-tests
	swift test --skip-build

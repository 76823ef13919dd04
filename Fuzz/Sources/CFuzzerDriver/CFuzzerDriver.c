// The declaration is all: libFuzzer defines LLVMFuzzerRunDriver.

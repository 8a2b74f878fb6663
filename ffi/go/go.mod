module asmcrypto

go 1.19

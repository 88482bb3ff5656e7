#include "go_asm.h"
#include "textflag.h"

// func Line(p unsafe.Pointer)
TEXT ·Line(SB), NOSPLIT|NOFRAME, $0-8
	MOVQ p+0(FP), AX
	PREFETCHT0 (AX)
	RET

// func Span(p unsafe.Pointer, n uintptr)
//
// AX walks the 64-byte lines from p's line while below p+n (at least one,
// at most MaxSpanLines, counted down in DX).
TEXT ·Span(SB), NOSPLIT|NOFRAME, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	ADDQ AX, CX
	ANDQ $~63, AX
	MOVQ $const_MaxSpanLines, DX

loop:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	DECQ DX
	JZ   done
	CMPQ AX, CX
	JB   loop

done:
	RET

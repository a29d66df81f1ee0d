import { describe, expect, it } from 'vitest'
import { splitCompiling } from '../tools/callgrind.mjs'

// The head of a real `callgrind_annotate --inclusive=yes` report of a counted JSON route, shortened.
const report = `--------------------------------------------------------------------------------
Ir
--------------------------------------------------------------------------------
555,935,458 (100.0%)  PROGRAM TOTALS

--------------------------------------------------------------------------------
Ir                   file:function
--------------------------------------------------------------------------------
292,401,904 (52.60%)  ???:Builtins_CompileLazy [/usr/bin/node]
 34,916,998 ( 6.28%)  ???:v8::internal::Runtime_CompileOptimized(int, unsigned long*, v8::internal::Isolate*) [/usr/bin/node]
 34,916,670 ( 6.28%)  ???:v8::internal::(anonymous namespace)::GetOrCompileOptimized(v8::internal::Isolate*, v8::internal::Handle<v8::internal::JSFunction>, v8::internal::ConcurrencyMode) [/usr/bin/node]
 25,215,711 ( 3.08%)  ???:v8::internal::(anonymous namespace)::CompileOptimizedOSR(v8::internal::Isolate*, v8::internal::Handle<v8::internal::JSFunction>, v8::internal::BytecodeOffset) [/usr/bin/node]
  3,549,002 ( 0.43%)  ???:v8::internal::Heap::CollectGarbage(v8::internal::AllocationSpace, v8::internal::GarbageCollectionReason, v8::GCCallbackFlags) [/usr/bin/node]
  1,090,124 ( 0.13%)  ???:v8::internal::Compiler::Compile(v8::internal::Isolate*, v8::internal::Handle<v8::internal::SharedFunctionInfo>, v8::internal::Compiler::ClearExceptionFlag) [/usr/bin/node]
  1,095,174 ( 0.13%)  ???:v8::internal::Compiler::Compile(v8::internal::Isolate*, v8::internal::Handle<v8::internal::JSFunction>, v8::internal::Compiler::ClearExceptionFlag) [/usr/bin/node]
    482,221 ( 0.06%)  ???:v8::internal::Compiler::CompileSharedWithBaseline(v8::internal::Isolate*, v8::internal::Handle<v8::internal::SharedFunctionInfo>) [/usr/bin/node]
`

describe('instructions without compiling', () => {
  it("takes each V8 compiler's inclusive cost off the total once, whatever the width of its percentage", () => {
    const compiling = 34_916_670 + 25_215_711 + 1_090_124 + 482_221
    expect(splitCompiling(report)).toEqual({ instructions: 555_935_458 - compiling, compiling })
  })

  it('leaves a report without compiling whole, and one without a total unread', () => {
    expect(splitCompiling(report.split('\n').slice(0, 8).join('\n'))).toEqual({
      instructions: 555_935_458,
      compiling: 0,
    })
    expect(splitCompiling('').instructions).toBeNaN()
  })
})

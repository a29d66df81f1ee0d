/** Node flags of every counted process: V8 single-threaded, a fixed young generation, no major GC. */
export declare const countFlags: string[]
/** The instructions of a callgrind dump less what V8's compilers spent in it. */
export declare function countWithoutCompiling(file: string): { instructions: number; compiling: number }
/** The same, from the text of `callgrind_annotate --inclusive=yes`. */
export declare function splitCompiling(report: string): { instructions: number; compiling: number }

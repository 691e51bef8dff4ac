; ModuleID = 'loop.cl'
source_filename = "loop.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: convergent noinline norecurse nounwind optnone
define dso_local spir_kernel void @acc(i32 addrspace(1)* noalias noundef align 4 %a, i32 addrspace(1)* noalias noundef align 4 %b, i32 noundef %n) #0 !kernel_arg_addr_space !3 !kernel_arg_access_qual !4 !kernel_arg_type !5 !kernel_arg_base_type !5 !kernel_arg_type_qual !6 {
entry:
  %a.addr = alloca i32 addrspace(1)*, align 8
  %b.addr = alloca i32 addrspace(1)*, align 8
  %n.addr = alloca i32, align 4
  %i = alloca i32, align 4
  store i32 addrspace(1)* %a, i32 addrspace(1)** %a.addr, align 8
  store i32 addrspace(1)* %b, i32 addrspace(1)** %b.addr, align 8
  store i32 %n, i32* %n.addr, align 4
  store i32 0, i32* %i, align 4
  br label %for.cond

for.cond:                                         ; preds = %for.inc, %entry
  %0 = load i32, i32* %i, align 4
  %1 = load i32, i32* %n.addr, align 4
  %cmp = icmp slt i32 %0, %1
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %2 = load i32 addrspace(1)*, i32 addrspace(1)** %a.addr, align 8
  %3 = load i32, i32* %i, align 4
  %idxprom = sext i32 %3 to i64
  %arrayidx = getelementptr inbounds i32, i32 addrspace(1)* %2, i64 %idxprom, !llvm.index.group !20
  %4 = load i32, i32 addrspace(1)* %arrayidx, align 4
  %5 = load i32 addrspace(1)*, i32 addrspace(1)** %b.addr, align 8
  %6 = load i32, i32* %i, align 4
  %idxprom1 = sext i32 %6 to i64
  %arrayidx2 = getelementptr inbounds i32, i32 addrspace(1)* %5, i64 %idxprom1, !llvm.index.group !21
  %7 = load i32, i32 addrspace(1)* %arrayidx2, align 4
  %mul = mul nsw i32 %7, 3
  %add = add nsw i32 %4, %mul
  %8 = load i32 addrspace(1)*, i32 addrspace(1)** %a.addr, align 8
  %9 = load i32, i32* %i, align 4
  %idxprom3 = sext i32 %9 to i64
  %arrayidx4 = getelementptr inbounds i32, i32 addrspace(1)* %8, i64 %idxprom3
  store i32 %add, i32 addrspace(1)* %arrayidx4, align 4
  br label %for.inc

for.inc:                                          ; preds = %for.body
  %10 = load i32, i32* %i, align 4
  %inc = add nsw i32 %10, 1
  store i32 %inc, i32* %i, align 4
  br label %for.cond, !llvm.loop !10

for.end:                                          ; preds = %for.cond
  ret void
}

attributes #0 = { convergent noinline norecurse nounwind optnone "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="false" }

!llvm.module.flags = !{!0}
!opencl.ocl.version = !{!1}
!opencl.spir.version = !{!1}
!llvm.ident = !{!2}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 2, i32 0}
!2 = !{!"Debian clang version 15.0.6"}
!3 = !{i32 1, i32 1, i32 0}
!4 = !{!"none", !"none", !"none"}
!5 = !{!"int*", !"int*", !"int"}
!6 = !{!"restrict", !"restrict const", !""}
!10 = distinct !{!10, !11, !12, !13, !14, !15, !16, !17}
!11 = !{!"llvm.loop.ii.count", i32 2}
!12 = !{!"llvm.loop.intel.loopcount_max", i64 1000}
!13 = !{!"llvm.loop.intel.loopcount_avg", i64 500}
!14 = !{!"llvm.loop.parallel_access_indices", !20, i32 1}
!15 = !{!"llvm.loop.parallel_access_indices", !21, i32 4}
!16 = !{!"llvm.loop.max_concurrency.count", i32 3}
!17 = !{!"llvm.loop.fusion.disable"}
!20 = distinct !{}
!21 = distinct !{}

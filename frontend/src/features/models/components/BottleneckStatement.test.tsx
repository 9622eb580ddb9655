import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { GroupBottleneckPublic } from "@/api";
import { BottleneckStatement } from "./BottleneckStatement";

const DIFFER: GroupBottleneckPublic = {
  group: { workers: 8 },
  statement:
    "the models differ (MVA: net_thread_0 from fitted service demands; demand model: CPU of local from measured CPU): they look at different resources",
  agree: false,
  models: [
    {
      model: "MVA",
      resource: "net_thread_0",
      component: "middleware 0",
      basis: "fitted service demands (middleware timers at N = 1)",
      detail: "largest demand per server, 68.4 µs",
    },
    {
      model: "demand model",
      resource: "CPU of local",
      component: "host local",
      basis: "measured CPU (utilization law)",
      detail: "utilization 0.93 of 2 servers at N = 1",
    },
  ],
};

describe("BottleneckStatement", () => {
  it("states one sentence per group, warned when the models differ, and each model's basis", () => {
    render(<BottleneckStatement bottleneck={DIFFER} />);
    const box = screen.getByTestId("bottleneck-statement");
    const sentence = box.querySelector("p");
    expect(sentence?.textContent).toBe(`Bottleneck: ${DIFFER.statement}.`);
    expect(sentence?.className).toBe("warning");
    const rows = screen.getAllByRole("row").slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      "MVAnet_thread_0fitted service demands (middleware timers at N = 1)largest demand per server, 68.4 µs",
      "demand modelCPU of localmeasured CPU (utilization law)utilization 0.93 of 2 servers at N = 1",
    ]);
  });

  it("is no warning when the models agree", () => {
    render(
      <BottleneckStatement
        bottleneck={{ ...DIFFER, agree: true, statement: "middleware 0 (MVA agree)" }}
      />,
    );
    expect(screen.getByTestId("bottleneck-statement").querySelector("p")?.className).toBe("");
  });
});

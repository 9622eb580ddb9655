import { describe, expect, it } from "vitest";
import type { AzureLabPublic, AzureTemplatePublic } from "@/api";
import { formatCountdown, initialForm, resourceStates, toRequest, withTemplate } from "./azureForm";

const reports: AzureTemplatePublic = {
  name: "reports",
  label: "3 clients, 1 middleware, 3 servers",
  servers: 3,
  middlewares: 1,
  clients: 3,
  server_size: "Standard_A1_v2",
  middleware_size: "Standard_A8_v2",
  client_size: "Standard_A2_v2",
};

function lab(status: AzureLabPublic["status"], progress: string[]): AzureLabPublic {
  return {
    id: 1,
    name: "x",
    status,
    planned: ["resource group g", "virtual network v", "virtual machine a"],
    progress,
    error: null,
    resource_group: "g",
    expires_at: null,
    testbed_id: null,
    budget: null,
    deleted_at: null,
    created_at: "2026-11-26T12:00:00Z",
    actions: [],
  };
}

describe("azure form", () => {
  it("takes a template's counts and sizes and keeps the rest", () => {
    const form = { ...initialForm(reports, "westeurope", "a:b:c:d", 4), name: "lab" };
    const two = withTemplate(form, { ...reports, name: "two", middlewares: 2 });
    expect(two.middlewares).toEqual({ count: 2, size: "Standard_A8_v2" });
    expect(two.name).toBe("lab");
  });

  it("sends no budget as null and a typed one as a number", () => {
    const form = initialForm(reports, "westeurope", "a:b:c:d", 4);
    expect(toRequest(form).budget).toBeNull();
    expect(toRequest({ ...form, budget: " 12.5 " }).budget).toBe(12.5);
    expect(toRequest({ ...form, image: "" }).image).toBeNull();
  });

  it("sends no zone (regional) as null and a chosen zone as it is", () => {
    const form = initialForm(reports, "westeurope", "a:b:c:d", 4);
    expect(toRequest(form).zone).toBeNull();
    expect(toRequest({ ...form, zone: "2" }).zone).toBe("2");
  });

  it("counts down in hours, minutes and seconds", () => {
    expect(formatCountdown(4 * 3600 + 2 * 60 + 3)).toBe("4 h 02 min 03 s");
    expect(formatCountdown(59.9)).toBe("0 min 59 s");
    expect(formatCountdown(0)).toBe("expired");
  });

  it("marks created, the one being created, and pending resources", () => {
    expect(resourceStates(lab("creating", ["resource group g"])).map((r) => r.state)).toEqual([
      "created",
      "creating",
      "pending",
    ]);
    expect(resourceStates(lab("failed", ["resource group g"])).map((r) => r.state)).toEqual([
      "created",
      "pending",
      "pending",
    ]);
  });
});

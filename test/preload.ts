// Tests build their own configuration; keep the developer's environment out.
process.env.JOBS = "off";
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? "silent";

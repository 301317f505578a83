"""Skills over MCP (issue 30), Qt-free: the skills a server exposes as `skill://` resources,
each SKILL.md read (size-capped), its YAML frontmatter parsed and validated into findings,
and the skill's other files.

Where the rules come from (each rule's docstring names its source):
- the Agent Skills specification (https://agentskills.io/specification, the format: the
  frontmatter fields and their limits), whose reference validator is `skills-ref`
  (github.com/agentskills/agentskills, skills-ref/src/skills_ref/validator.py);
- SEP-2640, the Skills Extension of the Skills Over MCP Working Group
  (github.com/modelcontextprotocol/experimental-ext-skills, docs/sep-draft-skills-extension.md:
  the transport binding: `skill://<skill-path>/SKILL.md`, the last path segment equal to
  the frontmatter `name`, the resource's mimeType, name and description, the security
  section).
"""

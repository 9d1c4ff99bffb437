# Not TypeScript: a Python file given as the schema.
def tool(name):
    return {"name": name}

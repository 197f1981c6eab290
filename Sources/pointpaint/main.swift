print("pointpaint")

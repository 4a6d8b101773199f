import ObjectGraph
print("spot")

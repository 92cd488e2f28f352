module github.com/npuemu/npuemu

go 1.26.8

require github.com/stretchr/testify v1.12.1

require (
	github.com/ebitengine/purego v0.11.3 // indirect
	github.com/hashicorp/go-immutable-radix v1.3.1 // indirect
	github.com/hashicorp/go-memdb v1.3.5 // indirect
	github.com/hashicorp/golang-lru v0.5.4 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)

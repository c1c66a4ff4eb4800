export default function Category() {
  return <h1>Category</h1>;
}
